"""Events in, bars out: pairs each call with its end in its lane of work, and places bars in lanes of the picture."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...trace.event_time import usable_time
from ...trace.numpy_on_use import np
from .picture import (
    CATEGORIES,
    CATEGORY_OF,
    ERROR,
    MAX_LANES,
    MODEL,
    POINTS,
    RATE_LIMIT,
    RETRY,
    SUMMARY,
    TOOL,
    Lane,
    Waterfall,
)


@dataclass
class OpenCall:
    """A call whose start was seen and whose end was not yet."""

    bar: int  # index of the bar it draws
    lane: int
    category: int
    name: str = ""  # the tool's (or model's) name, to pair an end that has no call id
    failed_at: tuple[int, float] | None = None  # (event, time) of a handled error, where it ends if nothing follows


class WaterfallBuilder:
    """Turns events, in order, into bars. Feed it with `add`; `waterfall()` gives what it has so far,
    so a live run grows its waterfall event by event.

    A call is paired with its end within its lane of work, as the OTLP export pairs spans: the loop's
    own, and one per tool call id (events inside a parallel call carry its id). A lane of the picture
    is free again once its bar ended, so calls that overlap take the next lane.
    """

    def __init__(self) -> None:
        self.start: list[float] = []
        self.end: list[float] = []
        self.kind: list[int] = []
        self.lane: list[int] = []
        self.first: list[int] = []
        self.last: list[int] = []
        self.error_at: list[float] = []
        self.running: list[bool] = []
        self.label: list[int] = []
        self.labels: list[str] = []
        self._label_ids: dict[str, int] = {}
        self.lanes: list[Lane] = []
        self._lanes_of: list[list[int]] = [[] for _ in CATEGORIES]  # lane indexes per category
        self._busy: dict[int, int] = {}  # lane -> open bar in it
        self._lane_end: dict[int, float] = {}  # lane -> when its last bar ended
        self._open: dict[str | None, list[OpenCall]] = {None: []}
        self.events = 0
        self._last_t = 0.0
        self._last_closed_model: int | None = None

    # -- feeding ---------------------------------------------------------------------------------
    def add(self, position: int, kind: str, t: float, call_id: str | None = None, payload: Any = None) -> None:
        """One event: its position, kind and time, the tool call it belongs to, and (for the kinds in
        PAYLOAD_EVENTS) its fields; `payload` for llm_start / tool_start is the model / tool name."""
        self.events = max(self.events, position + 1)
        if not usable_time(t):  # no usable time (an imported span's, NaN, 1e308): it stays where the run was
            t = self._last_t
        self._last_t = max(self._last_t, t)
        if kind in ("llm_start", "tool_start"):
            self._start_call(position, MODEL if kind == "llm_start" else TOOL, t, call_id, payload)
        elif kind in ("llm_end", "tool_end"):
            self._end_call(position, MODEL if kind == "llm_end" else TOOL, t, call_id, str(payload or ""))
        elif kind == "tool_error":
            self._tool_error(position, t, call_id, payload or {})
        elif kind == "retry":
            fields = payload or {}
            delay = _number(fields.get("delay"))
            name = f"{fields.get('target', '')} {fields.get('name', '')} #{fields.get('attempt', '?')}"
            self._bar(position, position, RETRY, t, t + delay, " ".join(name.split()), error_at=t)
        elif kind == "rate_limit_wait":
            waited = _number((payload or {}).get("waited"))
            self._bar(position, position, RATE_LIMIT, t - waited, t, "")
        elif kind == "summarized":
            self._summarized(position, t)
        elif kind in POINTS:
            self._point(position, kind, t, payload or {})
        elif kind == "chain_end":
            self._close_all(position, t)

    def _start_call(self, position: int, kind: int, t: float, call_id: str | None, name: Any) -> None:
        label = str(name or "")
        if kind == TOOL and call_id:
            label = f"{label} {call_id}".strip()
        bar = self._bar(position, position, kind, t, t, label, running=True)
        self._open.setdefault(call_id, []).append(OpenCall(bar, self.lane[bar], CATEGORY_OF[kind], str(name or "")))

    def _find_open(self, call_id: str | None, category: int, name: str = "") -> tuple[str | None, int] | None:
        """The innermost open call of `category` in the event's lane of work (else the loop's); with no
        call id to go by, the innermost of that name first (an import's parallel tools end in any order)."""
        for key in dict.fromkeys((call_id, None)):
            stack = self._open.get(key, [])
            found = [at for at in range(len(stack) - 1, -1, -1) if stack[at].category == category]
            named = [at for at in found if name and stack[at].name == name] if call_id is None else []
            if named or found:
                return key, (named or found)[0]
        return None

    def _end_call(self, position: int, kind: int, t: float, call_id: str | None, name: str = "") -> int | None:
        found = self._find_open(call_id, CATEGORY_OF[kind], name)
        if found is None:
            return None  # a trace cut before the call's start: nothing to end
        key, at = found
        opened = self._open[key].pop(at)
        if key is not None and not self._open[key]:
            del self._open[key]  # that call is done: a long live run keeps no entry per call it made
        self._finish(opened, position, t)
        if kind == MODEL:
            self._last_closed_model = opened.bar
        return opened.bar

    def _finish(self, opened: OpenCall, position: int, t: float) -> None:
        bar = opened.bar
        self.end[bar], self.last[bar], self.running[bar] = max(t, self.start[bar]), position, False
        self._busy.pop(opened.lane, None)
        self._lane_end[opened.lane] = max(self._lane_end.get(opened.lane, t), t)

    def _tool_error(self, position: int, t: float, call_id: str | None, fields: dict[str, Any]) -> None:
        name = str(fields.get("tool", ""))
        found = self._find_open(call_id, CATEGORY_OF[TOOL], name)
        if found is None:  # refused before it ran (arguments that do not parse): a failed call of no length
            self._bar(position, position, TOOL, t, t, name, error_at=t)
            return
        key, at = found
        opened = self._open[key][at]
        self.error_at[opened.bar] = t
        opened.failed_at = (position, t)
        if not fields.get("handled"):  # a handled error may still have its tool_end to come
            self._end_call(position, TOOL, t, call_id, name)

    def _summarized(self, position: int, t: float) -> None:
        """The summary is the model call just before it (the summariser's); else a mark."""
        bar = self._last_closed_model
        if bar is not None and bar == len(self.start) - 1:
            self.kind[bar], self.last[bar] = SUMMARY, position
            return
        self._bar(position, position, SUMMARY, t, t, "summary")

    def _point(self, position: int, kind: str, t: float, fields: dict[str, Any]) -> None:
        if kind == "plan_error" and self._find_open(None, CATEGORY_OF[MODEL]) is not None:
            bar = self._end_call(position, MODEL, t, None)  # the model call the plan waited on failed
            if bar is not None:
                self.error_at[bar] = t
                return
        mark = POINTS[kind]
        if kind == "fallback":
            label = f"{fields.get('failed_model', '')} → {fields.get('next_model', '')}"
        else:
            label = kind  # the event's kind: Waterfall.label_of says it in the reader's language
        self._bar(position, position, mark, t, t, label, error_at=t if mark == ERROR else float("nan"))
        if kind == "chain_error":
            self._close_all(position, t)

    def _close_all(self, position: int, t: float) -> None:
        """The run ended: whatever is still open (the model call a chain_error came out of) ends with it."""
        for stack in self._open.values():
            for opened in stack:  # a call that failed and had no end of its own ends where it failed
                self._finish(opened, *(opened.failed_at or (position, t)))
        self._open = {None: []}

    def _bar(self, first: int, last: int, kind: int, start: float, end: float, label: str, *,
             error_at: float = float("nan"), running: bool = False) -> int:  # fmt: skip
        bar = len(self.start)
        self.start.append(start)
        self.end.append(max(end, start))
        self.kind.append(kind)
        self.lane.append(self._free_lane(CATEGORY_OF[kind], start, bar if running else None))
        self.first.append(first)
        self.last.append(last)
        self.error_at.append(error_at)
        self.running.append(running)
        label_id = self._label_ids.get(label)
        if label_id is None:
            label_id = self._label_ids[label] = len(self.labels)
            self.labels.append(label)
        self.label.append(label_id)
        if not running:
            self._lane_end[self.lane[bar]] = max(self._lane_end.get(self.lane[bar], end), end)
        return bar

    def _free_lane(self, category: int, start: float, opening: int | None) -> int:
        """The first lane of the category with no open bar that ended by `start`; a new one if none
        (up to MAX_LANES: then the last, which draws what overlaps there as one aggregate)."""
        lanes = self._lanes_of[category]
        for lane in lanes:
            if lane not in self._busy and (opening is not None or self._lane_end.get(lane, start) <= start):
                break
        else:
            if len(lanes) < MAX_LANES:
                lane = len(self.lanes)
                self.lanes.append(Lane(category, len(lanes) + 1, overflow=len(lanes) + 1 == MAX_LANES))
                lanes.append(lane)
            else:
                lane = lanes[-1]
        if opening is not None:
            self._busy[lane] = opening
        return lane

    # -- the result -------------------------------------------------------------------------------
    def waterfall(self) -> Waterfall:
        """The bars so far; calls still open end at the latest time seen."""
        end = np.array(self.end, dtype=np.float64)
        last = np.array(self.last, dtype=np.int64)
        running = np.array(self.running, dtype=bool)
        if running.any():  # still open: they reach the latest time and the latest event seen
            end[running] = np.maximum(end[running], self._last_t)
            last[running] = max(self.events - 1, 0)
        order = sorted(range(len(self.lanes)), key=lambda i: (self.lanes[i].category, self.lanes[i].number))
        return Waterfall(
            start=np.array(self.start, dtype=np.float64),
            end=end,
            kind=np.array(self.kind, dtype=np.int8),
            lane=np.array(self.lane, dtype=np.int16),
            first=np.array(self.first, dtype=np.int64),
            last=last,
            error_at=np.array(self.error_at, dtype=np.float64),
            running=running,
            label=np.array(self.label, dtype=np.int32),
            labels=list(self.labels),
            lanes=list(self.lanes),
            order=order,
            events=self.events,
        )


def _number(value: Any) -> float:
    """A wait's length from a trace: a finite, non-negative number, else 0."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if 0.0 <= number < float("inf") else 0.0
