"""Conditions over events: field lookup, type checks, and evaluation over many events at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from executor.events import EVENT_CLASSES
from executor.states import STATES

from ..trace.index import event_tool
from ..trace.numpy_on_use import np
from ..trace.states import state_of_fields
from .condition_language import (
    MISSING,
    BoolOp,
    Compare,
    ConditionError,
    Field,
    Literal,
    Not,
    Resolve,
    Truthy,
    _Parser,
    compare,
    evaluate,
    tokenize,
    truthy,
)

__all__ = [
    "MISSING",
    "Condition",
    "ConditionError",
    "Resolve",
    "ShapeIndex",
    "kinds_having",
    "resolve_in",
    "tokenize",
    "vector_plan",
]


# Fields every event has, and the ones the index derives from the envelope.
ENVELOPE_FIELDS = {"seq", "run_id", "t", "iteration", "frames", "source", "kind"}
DERIVED_FIELDS = {"function", "method", "line", "file", "depth", "tool", "state"}
NUMERIC_FIELDS = {"seq", "iteration", "line", "depth"}
TEXT_FIELDS = {"kind", "function", "method", "file", "run_id", "state"}
FIELDS_BY_KIND: dict[str, set[str]] = {cls.model_fields["kind"].default: set(cls.model_fields) for cls in EVENT_CLASSES}


class ShapeIndex(Protocol):
    """What vectorised evaluation needs from a TraceIndex (see tracer/trace_index.py)."""

    @property
    def shapes(self) -> Sequence[Any]: ...  # read-only here, so TraceIndex's list of EventShape fits

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


# numpy's comparison functions by name: looked up on use, so importing this module loads no numpy.
_NUMPY_OPS = {"==": "equal", "!=": "not_equal", "<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal"}
_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numeric_compare(op: str, column: np.ndarray, value: Any, field_left: bool) -> np.ndarray | None:
    if op in _NUMPY_OPS and _is_number(value):
        return getattr(np, _NUMPY_OPS[op if field_left else _MIRRORED[op]])(column, value)
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
            table = np.array(
                [truthy(index.shape_value(s, node.field.name)) for s in index.shapes] + [False], dtype=bool
            )
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
                raise ConditionError(f"{field.name} is a number; compare it with a number, e.g. {field.name} >= 2")
            if field.name in TEXT_FIELDS and not isinstance(value, str):
                raise ConditionError(f'{field.name} is text; quote the value, e.g. {field.name} == "..."')
            if field.name == "state" and value not in STATES:
                raise ConditionError(f"state {value!r} is not a loop state; use one of {', '.join(STATES)}")
    for child in (
        getattr(node, "left", None),
        getattr(node, "right", None),
        getattr(node, "item", None),
        *getattr(node, "items", ()),
    ):
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
        if name == "state":  # the loop's state machine (executor.states), derived, never stored
            return state_of_fields(event)
        value: Any = event
        for part in name.split("."):
            if not isinstance(value, dict) or part not in value:
                return MISSING
            value = value[part]
        return tuple(value) if isinstance(value, list) else value

    return resolve
