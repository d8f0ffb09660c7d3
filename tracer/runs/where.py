"""`--where`: the breakpoint condition language over runs, a run kept when one of its events matches."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from executor.events import EVENT_KINDS

from ..debug.condition_language import BoolOp, Compare, ConditionError, Field, Literal, Not, Truthy
from ..debug.conditions import MISSING, Condition, Resolve, kinds_having, resolve_in
from ..trace.format_error import TraceFormatError
from ..trace.reader import TraceFile
from .run_fields import MAY_BE_NONE, RUN_FIELDS, SCORE_PREFIX, run_value, score_name
from .run_row import OUTCOMES, RunRow
from .summary import SHAPE_FIELDS, Shape

# Event fields the catalogue answers from its shapes; any other event field means reading the trace.
INDEXED = {*SHAPE_FIELDS, "method", "depth"}
RUN_PREFIX, EVENT_PREFIX = "run.", "event."
Shapes = Callable[[list[RunRow]], dict[str, frozenset[Shape] | None]]


def _split(name: str) -> tuple[str, str]:
    """("run" | "score" | "event", the bare name): run words win over an event field of the same name (model,
    duration, name, iterations); `event.NAME` reaches the event's, `run.NAME` says the run's plainly;
    `score.NAME` is the run's latest score of that name."""
    if score_name(name) is not None:
        return "score", name[len(SCORE_PREFIX) :]
    if name.startswith(RUN_PREFIX) and name[len(RUN_PREFIX) :] in RUN_FIELDS:
        return "run", name[len(RUN_PREFIX) :]
    if name.startswith(EVENT_PREFIX):
        return "event", name[len(EVENT_PREFIX) :]
    return ("run", name) if name in RUN_FIELDS else ("event", name)


def _shape_value(shape: Shape, name: str) -> Any:
    kind, tool, iteration, function, file, line, frames, state = shape
    values = {
        "kind": kind,
        "tool": tool if tool is not None else MISSING,
        "iteration": iteration,
        "function": function,
        "method": function,
        "file": file,
        "line": line,
        "frames": frames,
        "depth": len(frames),
        "state": state,
    }
    return values[name]


def _shape_resolver(shape: Shape) -> Resolve:
    return lambda name: _shape_value(shape, name)


class RunCondition:
    """A condition over runs. Run words (cost, outcome …) are the run's; every other name is an event
    field, and the run is kept when at least one of its events makes the whole condition true."""

    def __init__(self, text: str) -> None:
        self.condition = Condition(text)  # parses, and checks the event fields' types
        self.text = self.condition.text
        sides = [_split(name) for name in self.condition.fields]
        self.event_fields = {name for side, name in sides if side == "event"}
        # Scores belong to the run as its fields do: a shape's answer then depends on its run.
        self.run_fields = {f"{side}.{name}" for side, name in sides if side != "event"}
        for name in self.event_fields:
            if not kinds_having(name):
                raise ConditionError(
                    f"no run or event field is called {name!r}; run fields: {', '.join(RUN_FIELDS)}, score.NAME; "
                    "event fields: kind, tool, iteration, and each event's own (error_type, observation …)"
                )
        _check_values(self.condition.tree)
        kinds = set(EVENT_KINDS)
        for name in self.event_fields:
            kinds &= kinds_having(name)
        self.kinds = kinds  # an event of one of these kinds is needed (any, for a run-only condition)
        self.reads_traces = bool(self.event_fields - INDEXED)

    def __repr__(self) -> str:
        return f"RunCondition({self.text!r})"

    def select(self, rows: list[RunRow], shapes: Shapes) -> list[RunRow]:
        """The rows whose run meets the condition, in their order. `shapes` gives runs' event shapes
        (the catalogue's); a run it has none for is read from its file."""
        if not self.event_fields:
            return [row for row in rows if self._holds(self._resolver(row, lambda _name: MISSING))]
        candidates = [row for row in rows if row.readable and self.kinds & row.kinds.keys()]
        if self.reads_traces:
            return [row for row in candidates if self._any_event(row)]
        known = shapes(candidates)
        if self.run_fields:
            return [row for row in candidates if self._any_shape(row, known.get(row.path))]
        cache: dict[Shape, bool] = {}  # no run word: a shape matches or not whatever its run
        kept = []
        for row in candidates:
            found = known.get(row.path)
            if found is None:
                if self._any_event(row):
                    kept.append(row)
                continue
            if any(self._shape_holds(shape, row, cache) for shape in found):
                kept.append(row)
        return kept

    def _holds(self, resolve: Resolve) -> bool:
        return self.condition.matches(resolve)

    def _resolver(self, row: RunRow, event: Resolve) -> Resolve:
        def resolve(name: str) -> Any:
            side, bare = _split(name)
            if side == "run":
                value = run_value(row, bare)
                return MISSING if value is None and bare not in MAY_BE_NONE else value
            if side == "score":
                return row.scores.get(bare, MISSING)  # a run without the score matches no comparison
            return event(bare)

        return resolve

    def _shape_holds(self, shape: Shape, row: RunRow, cache: dict[Shape, bool]) -> bool:
        if shape not in cache:
            cache[shape] = self._holds(self._resolver(row, _shape_resolver(shape)))
        return cache[shape]

    def _any_shape(self, row: RunRow, found: Iterable[Shape] | None) -> bool:
        if found is None:
            return self._any_event(row)
        return any(self._holds(self._resolver(row, _shape_resolver(shape))) for shape in found)

    def _any_event(self, row: RunRow) -> bool:
        """Read the run's events of the kinds the condition can hold for, and test each."""
        try:
            with TraceFile(row.path) as trace:
                for position in range(len(trace)):
                    fields = trace.fields(position)
                    if fields.get("kind") in self.kinds and self._holds(
                        self._resolver(row, resolve_in(fields, position))
                    ):
                        return True
        except (TraceFormatError, OSError, ValueError, RecursionError):
            return False  # changed since it was listed, and no longer readable: nothing of it matches
        return False


def _check_values(node: Any) -> None:
    """A comparison of a run word with a value of the wrong type, or an outcome or kind that does not
    exist, would silently match nothing: say so instead."""
    if isinstance(node, Compare):
        for field, literal in ((node.left, node.right), (node.right, node.left)):
            if isinstance(field, Field) and isinstance(literal, Literal):
                _check_compared(field.name, node.op, literal.value)
    for child in (getattr(node, "left", None), getattr(node, "right", None), getattr(node, "item", None)):
        if isinstance(child, (Compare, BoolOp, Not, Truthy)):
            _check_values(child)
    for child in getattr(node, "items", ()):
        _check_values(child)


def _check_compared(name: str, op: str, value: Any) -> None:
    side, bare = _split(name)
    if side == "score":
        return  # a score is a number or a label: either comparison may be meant
    values = value if op in ("in", "not in") and isinstance(value, tuple) else (value,)
    if side == "event":
        if bare == "kind":
            for one in values:
                if isinstance(one, str) and one not in EVENT_KINDS:
                    raise ConditionError(f"no event kind is called {one!r}; kinds: {', '.join(EVENT_KINDS)}")
        return
    kind = RUN_FIELDS[bare][0]
    if op in ("in", "not in") and not isinstance(value, tuple):
        return  # `"gpt" in model`, `"x" in models`: a part of the text or an item of the list
    for one in values:
        if one is None and bare in MAY_BE_NONE and op in ("==", "!="):
            continue
        if kind == "number" and (not isinstance(one, (int, float)) or isinstance(one, bool)):
            raise ConditionError(f"{bare} is a number; compare it with a number, e.g. {bare} > 0.01")
        if kind in ("text", "list") and not isinstance(one, str):
            raise ConditionError(f'{bare} is text; quote the value, e.g. {bare} == "..."')
        if bare == "outcome" and one not in OUTCOMES:
            raise ConditionError(f"{one!r} is not an outcome; outcomes: {', '.join(OUTCOMES)}")
