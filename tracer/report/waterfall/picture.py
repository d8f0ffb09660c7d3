"""A run's waterfall: model calls, tool calls, waits, fallbacks and summaries as bars on one time axis, in lanes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import i18n
from ...trace.numpy_on_use import np

# What a bar is; its colour and its glyph in the debugger and the HTML page follow from it.
BAR_KINDS = ("model", "summary", "tool", "retry", "rate_limit", "fallback", "trim", "error")
MODEL, SUMMARY, TOOL, RETRY, RATE_LIMIT, FALLBACK, TRIM, ERROR = range(len(BAR_KINDS))
# The same colours in the terminal and the HTML page (readable on a dark and a light background).
COLOURS = ("#5b8def", "#a56de2", "#3fb06b", "#f0a030", "#d8c040", "#33c3d6", "#d066c0", "#e5484d")
# A lane holds bars of one category; lanes are drawn in this order, top to bottom.
CATEGORIES = ("model", "tool", "waits", "events")
CATEGORY_OF = {MODEL: 0, SUMMARY: 0, TOOL: 1, RETRY: 2, RATE_LIMIT: 2, FALLBACK: 3, TRIM: 3, ERROR: 3}
# A category gets at most this many lanes; calls that overlap more share the last one (drawn aggregated).
MAX_LANES = 8
# Events that are a point on the time axis: a mark in the events lane.
POINTS = {
    "fallback": FALLBACK,
    "context_trimmed": TRIM,
    "chain_error": ERROR,
    "parse_error": ERROR,
    "invalid_tool": ERROR,
    "plan_error": ERROR,
    "refusal": ERROR,
    "breaker_open": ERROR,
    "limit_reached": ERROR,
    "degrade": ERROR,
}
# Every kind the waterfall reads; the rest (agent_action, step, finish_check …) are not bars.
BAR_EVENTS = frozenset(
    {"llm_start", "llm_end", "tool_start", "tool_end", "tool_error", "retry", "rate_limit_wait", "summarized"}
    | set(POINTS)
    | {"chain_end"}
)
# Kinds whose payload the builder reads (the rest need only their time and call id).
PAYLOAD_EVENTS = BAR_EVENTS - {"llm_start", "llm_end", "tool_start", "tool_end", "chain_end"}


@dataclass
class Lane:
    category: int  # index into CATEGORIES
    number: int  # 1, 2, … within its category
    overflow: bool = False  # the last lane a category may have: it takes every call that overlaps more

    @property
    def name(self) -> str:
        return self.heading("en")

    def heading(self, lang: str = "en") -> str:
        """`model`, `tool 1`, `tool 8+` in `lang`."""
        word = i18n.say(f"waterfall.lane.{CATEGORIES[self.category]}", lang)
        if not (self.number > 1 or self.overflow or self.category == 1):
            return word
        return i18n.say(
            "waterfall.lane.overflow" if self.overflow else "waterfall.lane.numbered",
            lang,
            lane=word,
            number=self.number,
        )


@dataclass
class Waterfall:
    """Bars in event order (by the position of the event that starts them), as numpy arrays."""

    start: Any  # float64 seconds
    end: Any
    kind: Any  # int8, index into BAR_KINDS
    lane: Any  # int16, index into `lanes`
    first: Any  # int64: the event that starts the bar
    last: Any  # int64: the event that ends it (== first for a point)
    error_at: Any  # float64: when it failed (NaN when it did not)
    running: Any  # bool: not ended when the run (or the trace) stopped
    label: Any  # int32, index into `labels`
    labels: list[str]
    lanes: list[Lane]
    order: list[int]  # lane indexes top to bottom
    events: int  # how many events were read
    _by_lane: dict[int, tuple[Any, Any, Any]] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.start)

    @property
    def t0(self) -> float:
        return float(min(self.start.min(), 0.0)) if len(self) else 0.0

    @property
    def t1(self) -> float:
        return float(self.end.max()) if len(self) else 0.0

    def label_of(self, bar: int, lang: str = "en") -> str:
        """A bar's name: from the trace as it is (a model, a tool and its call id), but an events-lane mark
        made by an event of loopscope's own (a parse error, a trimmed context) named in `lang`."""
        label = self.labels[int(self.label[bar])]
        if int(self.kind[bar]) in (TRIM, ERROR):
            key = f"waterfall.point.{label}"
            return i18n.say(key, lang) if key in i18n.templates() else label.replace("_", " ")
        return label

    def description(self, bar: int, lang: str = "en") -> str:
        """One line for a bar in `lang`: what it is, when, how long, its events; its label, from the trace, kept."""
        kind, label = BAR_KINDS[int(self.kind[bar])], self.label_of(bar, lang)
        what = (
            label
            if CATEGORY_OF[int(self.kind[bar])] == 3
            else f"{i18n.say(f'waterfall.kind.{kind}', lang)} {label}".strip()
        )
        start, end = float(self.start[bar]), float(self.end[bar])
        first, last = int(self.first[bar]), int(self.last[bar])
        if first == last:
            span = i18n.say("waterfall.bar.event", lang, seq=first)
        else:
            span = i18n.say("waterfall.bar.events", lang, first=first, last=last)
        when = f"{start:.3f} s" if end == start else f"{start:.3f} → {end:.3f} s ({end - start:.3f} s)"
        failed, unfinished = self.error_at[bar] == self.error_at[bar], self.running[bar]  # NaN: did not fail
        notes = [
            i18n.say(f"waterfall.bar.{note}", lang)
            for note, on in (("failed", failed), ("unfinished", unfinished))
            if on
        ]
        return " · ".join([what, when, span, *notes])

    # -- finding bars ---------------------------------------------------------------------------
    def bar_at(self, position: int) -> int | None:
        """The innermost bar whose events include `position` (the latest to start), else None."""
        if not len(self):
            return None
        upto = int(np.searchsorted(self.first, position, side="right"))
        inside = np.flatnonzero(self.last[:upto] >= position)
        return int(inside[-1]) if len(inside) else None

    def lane_bars(self, lane: int) -> tuple[Any, Any, Any]:
        """(bar indexes by start, their starts, the latest end so far) of one lane, for window lookups."""
        if lane not in self._by_lane:
            bars = np.flatnonzero(self.lane == lane)
            bars = bars[np.argsort(self.start[bars], kind="stable")]
            self._by_lane[lane] = (bars, self.start[bars], np.maximum.accumulate(self.end[bars]))
        return self._by_lane[lane]

    def in_window(self, lane: int, t0: float, t1: float) -> Any:
        """The bars of `lane` that reach into [t0, t1), by start."""
        bars, starts, reach = self.lane_bars(lane)
        lo = int(np.searchsorted(reach, t0, side="left"))
        hi = int(np.searchsorted(starts, t1, side="left"))
        return bars[lo:hi] if hi > lo else bars[:0]

    def nearest_in_lane(self, lane: int, t: float) -> int | None:
        """The bar of `lane` running at `t`, else the one starting nearest to it."""
        bars, starts, _reach = self.lane_bars(lane)
        if not len(bars):
            return None
        at = int(np.searchsorted(starts, t, side="right")) - 1
        if at >= 0 and self.end[bars[at]] >= t:
            return int(bars[at])
        near = [i for i in (at, at + 1) if 0 <= i < len(bars)]
        return int(bars[min(near, key=lambda i: abs(float(starts[i]) - t))])
