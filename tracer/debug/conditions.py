"""A small, safe condition language over event fields (parsed by hand, never passed to eval)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from executor.events import EVENT_CLASSES


class ConditionError(ValueError):
    """A condition that does not parse or compares a field with the wrong kind of value."""


class _Missing:
    """The value of a field the event does not have: every comparison with it is False."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()

# -- tokens ----------------------------------------------------------------------------------------
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<number>-?\d+(?:\.\d+)?)
  | (?P<op>==|!=|<=|>=|<|>)
  | (?P<punct>[()\[\],])
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
""", re.VERBOSE)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}
_HINTS = {"=": "; compare with ==", "&": "; write and", "|": "; write or", "!": "; write not or !=",
          ".": "; only field names may contain dots (e.g. action.tool); nothing can be called"}
_KEYWORDS = {"and", "or", "not", "in"}
_CONSTANTS = {"true": True, "True": True, "false": False, "False": False, "None": None, "null": None}


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
            hint = _HINTS.get(text[at], "; text values need quotes, e.g. tool == \"Calculator\"")
            raise ConditionError(f"unexpected {text[at]!r} at column {at + 1}{hint}")
        kind, word = match.lastgroup, match.group()
        if kind == "string":
            tokens.append(Token("string", word, _unquote(word), at))
        elif kind == "number":
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
            raise ConditionError("the condition is empty; write e.g. kind == \"tool_error\"")
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
        if self.accept("not"):
            return Not(self.parse_not())
        return self.parse_comparison()

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
            node = self.parse_or()
            if not self.accept(")"):
                raise self.fail("')'")
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


# Fields every event has, and the ones the index derives from the envelope.
ENVELOPE_FIELDS = {"seq", "run_id", "t", "iteration", "frames", "source", "kind"}
DERIVED_FIELDS = {"function", "method", "line", "file", "depth", "tool"}
NUMERIC_FIELDS = {"seq", "iteration", "line", "depth"}
TEXT_FIELDS = {"kind", "function", "method", "file", "run_id"}
FIELDS_BY_KIND: dict[str, set[str]] = {
    cls.model_fields["kind"].default: set(cls.model_fields) for cls in EVENT_CLASSES}


class ShapeIndex(Protocol):
    """What vectorised evaluation needs from a TraceIndex (see tracer/trace_index.py)."""

    shapes: Sequence[Any]

    def shape_codes(self, lo: int, hi: int) -> np.ndarray: ...
    def iterations(self, lo: int, hi: int) -> np.ndarray: ...
    def shape_value(self, shape: Any, name: str) -> Any: ...


SHAPE_FIELDS = {"kind", "tool", "function", "method", "file", "line", "depth", "frames"}
ROW_FIELDS = {"seq", "iteration"}


def _field_side(node: Compare) -> tuple[Field, Literal, bool] | None:
    """(field, literal, field_is_left) when a comparison is between one field and one literal."""
    if isinstance(node.left, Field) and isinstance(node.right, Literal):
        return node.left, node.right, True
    if isinstance(node.right, Field) and isinstance(node.left, Literal):
        return node.right, node.left, False
    return None


def _vector_compare(node: Compare, index: ShapeIndex, lo: int, hi: int) -> np.ndarray | None:
    sides = _field_side(node)
    if sides is None:
        return None
    field, literal, field_left = sides
    name, value = field.name, literal.value

    def apply(column_value: Any) -> bool:
        pair = (column_value, value) if field_left else (value, column_value)
        return compare(node.op, *pair)

    if name in SHAPE_FIELDS:
        table = np.array([apply(index.shape_value(s, name)) for s in index.shapes] + [False], dtype=bool)
        return table[index.shape_codes(lo, hi)]
    if name in ROW_FIELDS:
        column = np.arange(lo, hi) if name == "seq" else index.iterations(lo, hi)
        return _numeric_compare(node.op, column, value, field_left)
    return None


_NUMPY_OPS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
              ">": np.greater, ">=": np.greater_equal}
_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numeric_compare(op: str, column: np.ndarray, value: Any, field_left: bool) -> np.ndarray | None:
    if op in _NUMPY_OPS and _is_number(value):
        return _NUMPY_OPS[op if field_left else _MIRRORED[op]](column, value)
    if op in ("in", "not in") and field_left and isinstance(value, tuple):
        found = np.isin(column, [v for v in value if _is_number(v)])
        return found if op == "in" else ~found
    return None  # anything else (e.g. 2 in iteration) is evaluated event by event


def _fields_in(node: Any) -> set[str]:
    if isinstance(node, Field):
        return {node.name}
    if isinstance(node, Truthy):
        return {node.field.name}
    if isinstance(node, Compare):
        return _fields_in(node.left) | _fields_in(node.right)
    if isinstance(node, Not):
        return _fields_in(node.item)
    if isinstance(node, BoolOp):
        return set().union(*(_fields_in(item) for item in node.items))
    return set()


def kinds_having(name: str) -> set[str]:
    """Kinds whose events carry the (top-level part of the) field; a comparison elsewhere is False."""
    top = name.split(".", 1)[0]
    if top in ENVELOPE_FIELDS or top in DERIVED_FIELDS:
        return set(FIELDS_BY_KIND)
    return {kind for kind, fields in FIELDS_BY_KIND.items() if top in fields}


def _kind_prefilter(node: Any, index: ShapeIndex, lo: int, hi: int) -> np.ndarray:
    kinds = set(FIELDS_BY_KIND)
    for name in _fields_in(node):
        kinds &= kinds_having(name)
    table = np.array([s.kind in kinds for s in index.shapes] + [False], dtype=bool)
    return table[index.shape_codes(lo, hi)]


def vector_plan(node: Any, index: ShapeIndex, lo: int, hi: int) -> tuple[np.ndarray, bool]:
    """A mask over events lo..hi-1 and whether it is exact.

    When it is not exact, the mask is a superset: only events it marks can satisfy the
    condition, and each must still be evaluated one by one.
    """
    if isinstance(node, Compare):
        mask = _vector_compare(node, index, lo, hi)
        return (mask, True) if mask is not None else (_kind_prefilter(node, index, lo, hi), False)
    if isinstance(node, Truthy):
        if node.field.name in SHAPE_FIELDS:
            table = np.array([truthy(index.shape_value(s, node.field.name)) for s in index.shapes]
                             + [False], dtype=bool)
            return table[index.shape_codes(lo, hi)], True
        return _kind_prefilter(node, index, lo, hi), False
    if isinstance(node, Not):
        mask, exact = vector_plan(node.item, index, lo, hi)
        return (~mask, True) if exact else (np.ones(hi - lo, dtype=bool), False)
    if isinstance(node, BoolOp):
        plans = [vector_plan(item, index, lo, hi) for item in node.items]
        combine = np.logical_and if node.op == "and" else np.logical_or
        mask = plans[0][0]
        for other, _exact in plans[1:]:
            mask = combine(mask, other)
        return mask, all(exact for _m, exact in plans)
    return np.full(hi - lo, truthy(evaluate(node, lambda _n: MISSING)), dtype=bool)


def _check_types(node: Any) -> None:
    """Catch comparisons that can never be true because of the field's type, and say so."""
    if isinstance(node, Compare):
        sides = _field_side(node)
        if sides and node.op not in ("in", "not in"):
            field, literal, _left = sides
            value = literal.value
            if field.name in NUMERIC_FIELDS and (isinstance(value, (str, bool)) or value is None):
                raise ConditionError(f"{field.name} is a number; compare it with a number, "
                                     f"e.g. {field.name} >= 2")
            if field.name in TEXT_FIELDS and not isinstance(value, str):
                raise ConditionError(f"{field.name} is text; quote the value, e.g. {field.name} == \"...\"")
    for child in (getattr(node, "left", None), getattr(node, "right", None), getattr(node, "item", None),
                  *getattr(node, "items", ())):
        if child is not None:
            _check_types(child)


class Condition:
    """A parsed condition. `matches(resolve)` for one event; `plan(index, lo, hi)` for many at once."""

    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self.tree = _Parser(self.text).parse()
        _check_types(self.tree)

    def __repr__(self) -> str:
        return f"Condition({self.text!r})"

    def matches(self, resolve: Resolve) -> bool:
        return bool(evaluate(self.tree, resolve))

    def plan(self, index: ShapeIndex, lo: int, hi: int) -> tuple[np.ndarray, bool]:
        return vector_plan(self.tree, index, lo, hi)

    @property
    def fields(self) -> set[str]:
        return _fields_in(self.tree)


def resolve_in(event: dict[str, Any], position: int | None = None) -> Resolve:
    """Field lookup over a decoded event (the JSON dict), including the derived names.

    `tool` is the tool the event is about: `tool` for tool and action events, the requested
    name for invalid_tool, and `action.tool` for step.
    """
    source = event.get("source") or {}

    def resolve(name: str) -> Any:
        if name == "seq" and position is not None:
            return position
        if name in ("function", "method"):
            return source.get("function", MISSING)
        if name in ("line", "file"):
            return source.get(name, MISSING)
        if name == "depth":
            return len(event.get("frames", ()))
        if name == "frames":
            return tuple(event.get("frames", ()))
        if name == "tool":
            return event_tool(event) or MISSING
        value: Any = event
        for part in name.split("."):
            if not isinstance(value, dict) or part not in value:
                return MISSING
            value = value[part]
        return tuple(value) if isinstance(value, list) else value

    return resolve


def event_tool(event: dict[str, Any]) -> str | None:
    """The tool an event is about (see resolve_in), or None."""
    if "tool" in event and isinstance(event["tool"], str):
        return event["tool"]
    if event.get("kind") == "invalid_tool":
        return event.get("requested")
    if event.get("kind") == "step":
        return (event.get("action") or {}).get("tool")
    return None
