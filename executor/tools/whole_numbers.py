"""Whole numbers numexpr computes in int64: their exact values first, and any that would wrap refused."""

from __future__ import annotations

import ast
import operator
from typing import NamedTuple

from .tool import ToolError

# numexpr keeps whole numbers whole through these (their result is int64 for an int64 argument).
_WHOLE_FUNCTIONS = frozenset({"abs", "floor", "ceil"})
_WHOLE_OPERATIONS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod,
}
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
FLOAT_EXACT = 2**53  # every whole number up to here is exact as a float


def check_whole_numbers(tree: ast.Expression, expression: str) -> str:
    """`expression` unchanged when numexpr can compute each of its whole numbers exactly; else a ToolError.

    Call it after the float-range check of the calculator, which bounds every power: the exact
    values here are then Python integers of at most a few thousand bits.
    """
    if (whole := _whole_value(tree.body, expression)) is not None:  # a whole-number answer must fit in int64 too
        _checked(whole, tree.body, expression, final=True)
    return expression


class _Whole(NamedTuple):
    """A node numexpr computes as a whole number: its exact value, and whether numexpr computes it
    in int64 (below a function call) rather than Python folding it exactly from the constants."""

    value: int
    in_int64: bool


def _whole_value(node: ast.AST, expression: str) -> _Whole | None:
    """The exact value of a node numexpr computes as a whole number; None for a floating-point one.

    Why: numexpr's int64 arithmetic wraps around silently, so `abs(-2**62)**2` came out as 0
    and `abs(-7) % 0` as 0. Only what follows a function call is at stake: numexpr first has
    Python fold the constants, with its exact integers (a result too large for int64 then fails
    loudly).
    """
    if isinstance(node, ast.Expression):
        return _whole_value(node.body, expression)
    if isinstance(node, ast.Constant):
        return _Whole(node.value, False) if type(node.value) is int else None
    if isinstance(node, ast.UnaryOp):
        inner = _whole_value(node.operand, expression)
        return (
            inner
            if inner is None or isinstance(node.op, ast.UAdd)
            else _checked(_Whole(-inner.value, inner.in_int64), node, expression)
        )
    if isinstance(node, ast.Call):
        args = [_whole_value(arg, expression) for arg in node.args]
        name = node.func.id  # type: ignore[attr-defined]
        if name not in _WHOLE_FUNCTIONS or len(args) != 1 or args[0] is None:
            return None
        argument = node.args[0]
        if isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Pow) and args[0].in_int64:
            _exact_in_float(args[0].value, node, expression)
        return _checked(_Whole(abs(args[0].value) if name == "abs" else args[0].value, True), node, expression)
    if isinstance(node, ast.BinOp):
        left, right = _whole_value(node.left, expression), _whole_value(node.right, expression)
        if left is None or right is None or type(node.op) not in _WHOLE_OPERATIONS:
            return None  # floating point: an int operand is converted first, and `/` always divides in floats
        return _whole_operation(node, left, right, expression)
    return None  # a name: pi or e


def _whole_operation(node: ast.BinOp, left: _Whole, right: _Whole, expression: str) -> _Whole | None:
    in_int64 = left.in_int64 or right.in_int64
    if isinstance(node.op, ast.Mod) and right.value == 0:  # numexpr's int64 % 0 gives 0
        raise ToolError(f"Calculator refused {expression!r}: {ast.unparse(node)} divides by zero.")
    # numexpr's int64 remainder is ((a % b) + b) % b in C, whose `+ b` wraps for b near 2**63.
    if isinstance(node.op, ast.Mod) and in_int64 and not _fits(_c_remainder(left.value, right.value) + right.value):
        raise ToolError(
            f"Calculator refused {expression!r}: numexpr gets the remainder {ast.unparse(node)} wrong "
            "for a divisor this large. Write one of its numbers with a decimal point (2.0 instead "
            "of 2) to compute in floating point."
        )
    if isinstance(node.op, ast.Pow) and right.value < 0:
        return None  # numexpr refuses a whole number to a negative whole power itself
    value = _WHOLE_OPERATIONS[type(node.op)](left.value, right.value)
    return _checked(_Whole(value, in_int64), node, expression)


def _exact_in_float(value: int, node: ast.AST, expression: str) -> None:
    """numexpr may compute a function of an int64 power in floating point (abs(abs(2**31)**2) is a float,
    abs(abs(2**31)**1) is not): only a whole number a float holds exactly is safe either way."""
    if abs(value) > FLOAT_EXACT:
        raise ToolError(
            f"Calculator refused {expression!r}: numexpr may compute {ast.unparse(node)} in floating point, "
            "where a whole number this large is not exact. Write it without the function."
        )


def _fits(value: int) -> bool:
    return INT64_MIN <= value <= INT64_MAX


def _c_remainder(dividend: int, divisor: int) -> int:
    """C's `%`: the sign of the dividend (Python's takes the divisor's)."""
    remainder = abs(dividend) % abs(divisor)
    return -remainder if dividend < 0 else remainder


def _checked(whole: _Whole, node: ast.AST, expression: str, final: bool = False) -> _Whole:
    if (whole.in_int64 or final) and not _fits(whole.value):
        digits = int(whole.value.bit_length() * 0.30103) + 1
        raise ToolError(
            f"Calculator refused {expression!r}: {ast.unparse(node)} is a whole number of about "
            f"{digits} digits, beyond the 64 bits numexpr computes whole numbers in. Write one of "
            "its numbers with a decimal point (2.0 instead of 2) to compute in floating point."
        )
    return whole
