"""The condition language itself: tokens, a hand-written parser and an evaluator (never eval)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class ConditionError(ValueError):
    """A condition that does not parse or compares a field with the wrong kind of value."""


class _Missing:
    """The value of a field the event does not have: every comparison with it is False."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()

# -- tokens ----------------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<number>-?[0-9]+(?:\.[0-9]+)?)
  | (?P<op>==|!=|<=|>=|<|>)
  | (?P<punct>[()\[\],])
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
""",
    re.VERBOSE,
)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}
_HINTS = {
    "=": "; compare with ==",
    "&": "; write and",
    "|": "; write or",
    "!": "; write not or !=",
    ".": "; only field names may contain dots (e.g. action.tool); nothing can be called",
}
_KEYWORDS = {"and", "or", "not", "in"}
_CONSTANTS = {"true": True, "True": True, "false": False, "False": False, "None": None, "null": None}


# Limits that keep a hostile condition a one-line error: int64 fits 18 digits, and the parser
# and evaluator recurse once per nested '(' or 'not' (Python's stack holds about a thousand).
MAX_NUMBER_DIGITS = 18
MAX_NESTING = 50


@dataclass(frozen=True)
class Token:
    type: str  # string, number, op, punct, name, keyword, end
    text: str
    value: Any = None
    at: int = 0


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), body)


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            hint = _HINTS.get(text[at], '; text values need quotes, e.g. tool == "Calculator"')
            raise ConditionError(f"unexpected {text[at]!r} at column {at + 1}{hint}")
        kind, word = match.lastgroup or "", match.group()  # every alternative of _TOKEN is a named group
        if kind == "string":
            tokens.append(Token("string", word, _unquote(word), at))
        elif kind == "number":
            if len(word) > MAX_NUMBER_DIGITS:
                raise ConditionError(
                    f"the number at column {at + 1} has {len(word)} characters; "
                    f"numbers here have at most {MAX_NUMBER_DIGITS}"
                )
            tokens.append(Token("number", word, float(word) if "." in word else int(word), at))
        elif kind == "name" and word in _KEYWORDS:
            tokens.append(Token("keyword", word, None, at))
        elif kind == "name" and word in _CONSTANTS:
            tokens.append(Token("constant", word, _CONSTANTS[word], at))
        elif kind != "space":
            tokens.append(Token(kind, word, None, at))
        at = match.end()
    tokens.append(Token("end", "", None, len(text)))
    return tokens


# -- syntax tree -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Literal:
    value: Any


@dataclass(frozen=True)
class Field:
    name: str  # possibly dotted, e.g. action.tool


@dataclass(frozen=True)
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Any
    right: Any


@dataclass(frozen=True)
class Truthy:
    field: Field


@dataclass(frozen=True)
class BoolOp:
    op: str  # and / or
    items: tuple


@dataclass(frozen=True)
class Not:
    item: Any


class _Parser:
    """Recursive descent: or > and > not > comparison > operand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.at = 0
        self.depth = 0

    def nest(self, token: Token) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ConditionError(
                f"{token.text!r} at column {token.at + 1} nests more than {MAX_NESTING} "
                "deep; write the condition flatter"
            )

    def peek(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def accept(self, text: str) -> bool:
        if self.peek().text == text and self.peek().type in ("keyword", "punct", "op"):
            self.at += 1
            return True
        return False

    def fail(self, expected: str) -> ConditionError:
        token = self.peek()
        found = "the end" if token.type == "end" else repr(token.text)
        return ConditionError(f"expected {expected} at column {token.at + 1}, found {found}")

    def parse(self) -> Any:
        if self.peek().type == "end":
            raise ConditionError('the condition is empty; write e.g. kind == "tool_error"')
        node = self.parse_or()
        if self.peek().type != "end":
            raise self.fail("'and', 'or' or the end of the condition")
        return node

    def parse_or(self) -> Any:
        items = [self.parse_and()]
        while self.accept("or"):
            items.append(self.parse_and())
        return items[0] if len(items) == 1 else BoolOp("or", tuple(items))

    def parse_and(self) -> Any:
        items = [self.parse_not()]
        while self.accept("and"):
            items.append(self.parse_not())
        return items[0] if len(items) == 1 else BoolOp("and", tuple(items))

    def parse_not(self) -> Any:
        nots = 0
        while self.peek().text == "not" and self.peek().type == "keyword":
            self.nest(self.take())  # 'not not not x' is a loop, not a recursion
            nots += 1
        node = self.parse_comparison()
        self.depth -= nots
        for _ in range(nots):
            node = Not(node)
        return node

    def parse_comparison(self) -> Any:
        left = self.parse_operand()
        token = self.peek()
        if token.type == "op":
            self.take()
            return Compare(token.text, left, self.parse_operand())
        if self.accept("in"):
            return Compare("in", left, self.parse_operand())
        if token.text == "not" and self.tokens[self.at + 1].text == "in":
            self.at += 2
            return Compare("not in", left, self.parse_operand())
        if isinstance(left, Field):
            return Truthy(left)
        if isinstance(left, (BoolOp, Not, Compare, Truthy)):
            return left
        raise self.fail("a comparison such as == or in after a value")

    def parse_operand(self) -> Any:
        token = self.take()
        if token.type in ("string", "number", "constant"):
            return Literal(token.value)
        if token.type == "name":
            return Field(token.text)
        if token.text == "(":
            self.nest(token)
            node = self.parse_or()
            if not self.accept(")"):
                raise self.fail("')'")
            self.depth -= 1
            return node
        if token.text == "[":
            return Literal(self.parse_list())
        self.at -= 1
        raise self.fail("a field name, a quoted string, a number, true/false or [list]")

    def parse_list(self) -> tuple:
        values = []
        while not self.accept("]"):
            token = self.take()
            if token.type not in ("string", "number", "constant"):
                self.at -= 1
                raise self.fail("a literal inside [...]")
            values.append(token.value)
            if not self.accept(","):
                if not self.accept("]"):
                    raise self.fail("',' or ']'")
                break
        return tuple(values)


# -- semantics -------------------------------------------------------------------------------------
def compare(op: str, left: Any, right: Any) -> bool:
    """One comparison with the language's rules: a missing field or a type clash is simply False."""
    if left is MISSING or right is MISSING:
        return False
    try:
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if op in ("in", "not in"):
            if isinstance(right, str):
                found = isinstance(left, str) and left in right
            elif isinstance(right, (list, tuple, dict)):
                found = left in right
            else:
                return False
            return found if op == "in" else not found
        if isinstance(left, bool) or isinstance(right, bool):
            return False
        return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]
    except TypeError:
        return False


def truthy(value: Any) -> bool:
    return value is not MISSING and bool(value)


Resolve = Callable[[str], Any]


def evaluate(node: Any, resolve: Resolve) -> Any:
    """Evaluate a parsed condition for one event; `resolve(name)` returns a field's value or MISSING."""
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Field):
        return resolve(node.name)
    if isinstance(node, Compare):
        return compare(node.op, evaluate(node.left, resolve), evaluate(node.right, resolve))
    if isinstance(node, Truthy):
        return truthy(resolve(node.field.name))
    if isinstance(node, Not):
        return not evaluate(node.item, resolve)
    if node.op == "and":
        return all(evaluate(item, resolve) for item in node.items)
    return any(evaluate(item, resolve) for item in node.items)
