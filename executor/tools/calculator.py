"""The LLM-to-numexpr calculator: the model writes the expression, numexpr computes it."""

from __future__ import annotations

import ast
import math
import operator
import re
from typing import TYPE_CHECKING

from ..awaiting import Narrated
from ..events import CalculatorEvalEvent
from ..models.chat_model import ChatModel, call_model
from ..run_context import RunContext
from .tool import Tool, ToolError
from .whole_numbers import check_whole_numbers

if TYPE_CHECKING:  # numpy and numexpr load on the first calculation, not with the executor
    import numpy

# LangChain: LLMMathChain's prompt, in loopscope's own words.
MATH_PROMPT = """Turn the math problem into a single expression that Python's numexpr library can evaluate. \
The result of running it is used to answer the question.

Question: ${{the question that needs arithmetic}}
```text
${{one line: the expression that solves it}}
```
...numexpr.evaluate(text)...
```output
${{what running the expression printed}}
```
Answer: ${{the answer}}

Begin.

Question: What is 48 * 12?
```text
48 * 12
```
...numexpr.evaluate("48 * 12")...
```output
576
```
Answer: 576

Question: What is the square root of 2, cubed?
```text
sqrt(2)**3
```
...numexpr.evaluate("sqrt(2)**3")...
```output
2.8284271247461907
```
Answer: 2.8284271247461907

Question: {question}
"""
MATH_STOP = ["```output"]
MAX_EXPRESSION_CHARS = 500
CONSTANTS = {"pi": math.pi, "e": math.e}
FUNCTIONS = frozenset(
    {
        "sin",
        "cos",
        "tan",
        "arcsin",
        "arccos",
        "arctan",
        "arctan2",
        "sinh",
        "cosh",
        "tanh",
        "arcsinh",
        "arccosh",
        "arctanh",
        "log",
        "log10",
        "log1p",
        "exp",
        "expm1",
        "sqrt",
        "abs",
        "floor",
        "ceil",
    }
)
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod, ast.UAdd, ast.USub)
_FLOAT_OPERATIONS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod,
}
_TEXT_BLOCK = re.compile(r"^```text(.*?)```", re.DOTALL)


def _refuse(expression: str, why: str) -> ToolError:
    return ToolError(
        f"Calculator refused {expression!r}: {why}. "
        "Write plain arithmetic: numbers, + - * / ** %, parentheses, "
        f"pi, e and the functions {', '.join(sorted(FUNCTIONS))}."
    )


def _check_node(node: ast.AST, expression: str) -> None:
    if isinstance(node, ast.Expression):
        return _check_node(node.body, expression)
    if isinstance(node, ast.Constant):
        if type(node.value) not in (int, float):
            raise _refuse(expression, f"{node.value!r} is not a number")
        if isinstance(node.value, int) and abs(node.value) >= 2**63:
            raise _refuse(expression, "a whole number that large does not fit in 64 bits")
        return None
    if isinstance(node, ast.Name):
        if node.id not in CONSTANTS:
            raise _refuse(expression, f"the name {node.id!r} is not a known constant")
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, _OPERATORS):
        _check_node(node.left, expression)
        return _check_node(node.right, expression)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _OPERATORS):
        return _check_node(node.operand, expression)
    if isinstance(node, ast.Call):
        if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS) or node.keywords:
            raise _refuse(expression, "only numexpr's math functions may be called")
        for arg in node.args:
            _check_node(arg, expression)
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
        raise _refuse(expression, "^ is not a power here; use **")
    raise _refuse(expression, f"{type(node).__name__} is not arithmetic")


def _float_value(node: ast.AST, expression: str) -> numpy.float64:
    """The node's value in float64 arithmetic, refusing any power whose result no float can hold.

    Why: numexpr folds constant sub-expressions with Python's unbounded integers before it
    evaluates anything, so `9**9**9` would compute a number of 370 million digits (for hours).
    Every step but a power grows a number by at most its operands' digits, and the expression
    is short, so bounding each power to the float range bounds the whole computation. inf
    and nan here mean "beyond float range" (or undefined), never a real answer.
    """
    import numpy  # numpy and numexpr load with the first calculation (~50 ms), not with the module

    if isinstance(node, ast.Expression):
        return _float_value(node.body, expression)
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, (int, float))  # _check_node let no other constant through
        return numpy.float64(node.value)
    if isinstance(node, ast.Name):
        return numpy.float64(CONSTANTS[node.id])
    if isinstance(node, ast.UnaryOp):
        value = _float_value(node.operand, expression)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)  # _check_node let no other call through
        args = [_float_value(arg, expression) for arg in node.args]
        try:
            return numpy.float64(getattr(numpy, node.func.id)(*args))
        except TypeError:  # a wrong number of arguments: numexpr will say so itself
            return numpy.float64("nan")
    assert isinstance(node, ast.BinOp)  # _check_node let nothing else through
    left, right = _float_value(node.left, expression), _float_value(node.right, expression)
    value = _FLOAT_OPERATIONS[type(node.op)](left, right)
    if (
        isinstance(node.op, ast.Pow)
        and not numpy.isfinite(value)
        and (numpy.isinf(value) or not (numpy.isfinite(left) and numpy.isfinite(right)))
    ):
        raise ToolError(
            f"Calculator refused {expression!r}: the power {ast.unparse(node)} is beyond "
            "the largest number a float can hold (about 1.8e308). Ask for a smaller "
            "number, or for its logarithm."
        )
    return value


def check_expression(expression: str) -> str:
    """Refuse anything that is not plain arithmetic, before numexpr ever sees it.

    The expression is only parsed into a syntax tree and inspected, never run by Python.
    """
    expression = expression.strip()
    if not expression:
        raise _refuse(expression, "the expression is empty")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise _refuse(expression[:40] + "...", f"it is longer than {MAX_EXPRESSION_CHARS} characters")
    if "__" in expression or ";" in expression:
        raise _refuse(expression, "'__' and ';' are never part of arithmetic")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise _refuse(expression, "it is not a well-formed expression") from None
    _check_node(tree, expression)
    import numpy  # here, not at the top: numpy loads with the first calculation (see _float_value)

    with numpy.errstate(all="ignore"):  # overflow becomes inf, which _float_value then judges
        _float_value(tree, expression)
    return check_whole_numbers(tree, expression)  # after _float_value, which bounds every power


# What numpy's floating-point flags mean for an answer, said beside it (the model reads the answer).
_FLAG_NOTES = {
    "invalid value": "not a real number: a function outside its domain (sqrt or log of a negative number) or 0/0",
    "divide by zero": "infinite: a division by zero or the logarithm of 0",
    "overflow": "beyond the largest number a float can hold (about 1.8e308)",
}


def evaluate_expression(expression: str) -> str:
    """Evaluate checked arithmetic with numexpr: no globals, only pi and e, sanitize on.

    An answer that is no finite number (`sqrt(-1)` is nan, `log(0)` is -inf) says why beside it:
    numpy's RuntimeWarnings (from numexpr folding constants) are caught here, not printed on stderr.
    """
    import numexpr  # here, not at the top: numexpr (~50 ms with numpy) loads with the first calculation
    import numpy

    expression = check_expression(expression)
    flags: list[str] = []
    try:
        # errstate is per thread (a context variable), so parallel tool calls keep their own flags.
        with numpy.errstate(all="call", under="ignore", call=lambda flag, _code: flags.append(flag)):
            value = numexpr.evaluate(expression, global_dict={}, local_dict=dict(CONSTANTS), sanitize=True)
    except Exception as error:  # numexpr reports domain and type problems this way
        raise ToolError(
            f"numexpr could not evaluate {expression!r}: {error}. Please try again with a valid numerical expression."
        ) from None
    answer = re.sub(r"^\[|\]$", "", str(value))
    if not flags and not numpy.all(numpy.isfinite(value)):  # computed by numexpr's own machine, which flags nothing
        flags.append("invalid value" if numpy.any(numpy.isnan(value)) else "divide by zero")
    notes = [_FLAG_NOTES[flag] for flag in dict.fromkeys(flags) if flag in _FLAG_NOTES]
    return f"{answer} ({'; '.join(notes)})" if notes else answer


def extract_expression(reply: str) -> str | None:
    match = _TEXT_BLOCK.search(reply.strip())
    return match.group(1) if match else None


def llm_math_tool(
    model: ChatModel,
    name: str = "Calculator",
    description: str = "Useful for when you need to answer questions about math.",
    handle_tool_error: bool = True,
) -> Tool:
    """A Tool that asks `model` for a numexpr expression and evaluates it (LangChain: LLMMathChain).

    Refusals and numexpr errors are ToolErrors; by default they go back to the agent as the
    observation so it can rephrase, rather than ending the run.
    """

    def calculate(question: str, run: RunContext) -> Narrated[str]:
        prompt = MATH_PROMPT.format(question=question)
        reply = yield from call_model(run, model, prompt, MATH_STOP)
        expression = extract_expression(reply)
        if expression is not None:
            result = evaluate_expression(expression)
            yield run.emit(CalculatorEvalEvent, expression=expression.strip(), result=result)
            return f"Answer: {result}"
        if reply.strip().startswith("Answer:"):
            return reply.strip()
        if "Answer:" in reply:
            return "Answer: " + reply.split("Answer:")[-1].strip()
        raise ToolError(
            "The calculator's model reply had no ```text block with an expression "
            "and no 'Answer:'; ask the question as plain arithmetic."
        )

    return Tool(name=name, description=description, func=calculate, handle_tool_error=handle_tool_error)
