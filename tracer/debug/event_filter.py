"""The timeline filter: show only some kinds, tools, iterations, or events meeting a breakpoint condition."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from executor.events import EVENT_KINDS

from ..i18n import Message, say
from ..trace.index import TraceIndex
from ..trace.numpy_on_use import np
from .breakpoints import ResolveAt
from .conditions import Condition, ConditionError

FILTER_HELP = say("debugger.filter_help")  # in English: the errors that quote it are English too
_ITERATIONS = re.compile(r"(\d+)(?:-(\d+))?$")
CHECK_EVERY = 20_000  # events a condition reads between asking whether to stop


class FilterSpecError(ValueError):
    """A filter that cannot be read; the message says how to write one."""


@dataclass
class EventFilter:
    """Which events the timeline shows. Kinds, tools and iterations each allow any of their values;
    the condition (the breakpoint condition language) must also hold."""

    text: str
    kinds: set[str] = field(default_factory=set)
    tools: set[str] = field(default_factory=set)
    iterations: set[int] = field(default_factory=set)
    condition: Condition | None = None

    @classmethod
    def parse(cls, text: str) -> EventFilter:
        head, _, condition_text = (" " + text.strip()).partition(" if ")
        result = cls(text.strip())
        if condition_text.strip():
            try:
                result.condition = Condition(condition_text)
            except ConditionError as error:
                raise FilterSpecError(f"bad condition {condition_text.strip()!r}: {error}") from None
        for term in head.replace(",", " ").split():
            result._add_term(term)
        if not (result.kinds or result.tools or result.iterations or result.condition):
            raise FilterSpecError(f"empty filter: {FILTER_HELP}")
        return result

    def _add_term(self, term: str) -> None:
        key, sep, value = term.partition("=")
        if not sep and term in EVENT_KINDS:
            self.kinds.add(term)
        elif key == "kind" and value in EVENT_KINDS:
            self.kinds.add(value)
        elif key == "tool" and value:
            self.tools.add(value)
        elif key == "iteration" and (match := _ITERATIONS.match(value)):
            first, last = int(match[1]), int(match[2] or match[1])
            self.iterations.update(range(first, last + 1))
        elif not sep or key == "kind":
            raise FilterSpecError(f"unknown event kind {value or term!r}; kinds are: {', '.join(EVENT_KINDS)}")
        else:
            raise FilterSpecError(f"cannot read {term!r}: {FILTER_HELP}")

    def mask(
        self, index: TraceIndex, resolve_at: ResolveAt, lo: int, hi: int, cancelled: Callable[[], bool] = lambda: False
    ) -> np.ndarray | None:
        """Which of events lo..hi-1 are shown (None if `cancelled()` said stop: it is asked every
        CHECK_EVERY events a condition reads, as that may read every line of a big trace)."""
        shown = np.ones(max(hi - lo, 0), dtype=bool)
        if self.kinds:
            shown &= index.shape_mask(lambda s: s.kind in self.kinds, lo, hi)
        if self.tools:
            shown &= index.shape_mask(lambda s: s.tool in self.tools, lo, hi)
        if self.iterations:
            shown &= np.isin(index.iterations(lo, hi), list(self.iterations))
        if self.condition is not None:
            narrowed, exact = self.condition.plan(index, lo, hi)
            shown &= narrowed
            if not exact:
                for count, offset in enumerate(np.flatnonzero(shown)):
                    if count % CHECK_EVERY == 0 and cancelled():
                        return None
                    shown[offset] = self.condition.matches(resolve_at(lo + int(offset)))
        return shown

    @property
    def reads_events(self) -> bool:
        """True when the filter decodes events (a condition the index alone cannot decide): slow on a big trace."""
        return self.condition is not None


class FilteredView:
    """The positions a filter shows, recomputed when the store grows; None filter shows everything."""

    def __init__(self) -> None:
        self.filter: EventFilter | None = None
        self.step_within = False
        self._shown: np.ndarray | None = None
        self._length = -1

    def set(self, event_filter: EventFilter | None, shown: np.ndarray | None = None, length: int = -1) -> None:
        """Use `event_filter`; `shown` (computed for the first `length` events, e.g. in a worker) saves
        computing it again."""
        self.filter, self._shown, self._length = event_filter, shown, length

    def shown(self, index: TraceIndex, resolve_at: ResolveAt) -> np.ndarray | None:
        """Sorted positions shown, or None when there is no filter."""
        if self.filter is None:
            return None
        if self._shown is None or self._length != len(index):
            self._shown = np.flatnonzero(self.filter.mask(index, resolve_at, 0, len(index)))
            self._length = len(index)
        return self._shown

    @staticmethod
    def row_of(shown: np.ndarray, position: int) -> int:
        """The row of `position` if shown, else the row the next shown event is on."""
        return int(np.searchsorted(shown, position, side="left"))

    @staticmethod
    def next_shown(shown: np.ndarray, position: int, direction: int) -> int | None:
        """The next shown event after (or before) `position`."""
        if direction > 0:
            at = int(np.searchsorted(shown, position, side="right"))
            return int(shown[at]) if at < len(shown) else None
        at = int(np.searchsorted(shown, position, side="left")) - 1
        return int(shown[at]) if at >= 0 else None


def describe(
    shown: np.ndarray | None, total: int, event_filter: EventFilter | None, step_within: bool, current_hidden: bool
) -> Message | None:
    """`filter: tool=Search · 6 shown, 17 hidden · current event hidden` for the timeline's border."""
    if event_filter is None or shown is None:
        return None
    counts = {"text": event_filter.text, "shown": f"{len(shown):,}", "hidden": f"{total - len(shown):,}"}
    said = Message("panes.filter_note", counts)
    return said.then(
        Message("panes.current_hidden") if current_hidden else None,
        Message("panes.stepping_within") if step_within else None,
    )
