"""The lanes of concurrent tool calls: one column per tool_call_id, so calls that overlap in time show side by side."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rich.text import Text

from executor.events import EventBase

from ...debug.session import UnreadableEvent

LANE_WIDTH = 2
MAX_LANES = 4
ID_WIDTH = 8
ERROR_KINDS = frozenset({"tool_error", "invalid_tool", "parse_error", "chain_error"})
SCAN_LIMIT = 400  # a stretch of concurrent events longer than this is drawn from its visible part


def _lane_id(event: EventBase | UnreadableEvent) -> str | None:
    """The call a concurrent event belongs to; the round's actions and steps are not in a lane."""
    if event.kind in ("agent_action", "step"):
        return None
    return getattr(event, "tool_call_id", None)


class LaneMap:
    """Which lanes are open at each event of a stretch of concurrent calls (looked up lazily)."""

    def __init__(self, event_at: Callable[[int], EventBase | UnreadableEvent], length: int) -> None:
        self.event_at, self.length = event_at, length
        self._stretch = lru_cache(maxsize=64)(self._stretch_of)

    def _stretch_of(self, start: int) -> tuple[tuple[str, ...], tuple[tuple[str | None, int, int], ...]]:
        """Lane order and, per lane, (id, first position, last position) from the stretch's start."""
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        position = start
        while position < min(self.length, start + SCAN_LIMIT):
            lane = _lane_id(self.event_at(position))
            if lane is None:
                break
            first.setdefault(lane, position)
            last[lane] = position
            position += 1
        return tuple(first), tuple((lane, first[lane], last[lane]) for lane in first)

    def start_of(self, position: int) -> int:
        while position > 0 and _lane_id(self.event_at(position - 1)) is not None:
            position -= 1
        return position

    def _lanes_at(self, position: int, event: EventBase | UnreadableEvent) -> tuple[str, tuple, tuple] | None:
        lane = _lane_id(event)
        if lane is None or isinstance(event, UnreadableEvent):  # an unreadable line has no call id
            return None
        order, spans = self._stretch(self.start_of(position))
        return (lane, order, spans) if len(order) >= 2 else None

    def cell(self, position: int, event: EventBase | UnreadableEvent | None = None, narrow: bool = False) -> Text:
        """Blank for an event outside any lane; else ● in its own lane's column (✗ in red for an
        error, as a plain row's red kind marks it) and │ in each other lane still running (started
        and not yet ended) at this event; a narrow pane gets one column a lane. Pass the event when
        the caller has it: outside the lanes nothing else is read."""
        event = self.event_at(position) if event is None else event
        lanes = self._lanes_at(position, event)
        if lanes is None:
            return Text("")
        lane, _order, spans = lanes
        gap = "" if narrow else " "
        cell = Text(no_wrap=True)
        for index, (other, begin, end) in enumerate(spans[:MAX_LANES]):
            colour = f"color({index + 2})"
            if other == lane and event.kind in ERROR_KINDS:
                cell.append("✗" + gap, style="bold red")
            elif other == lane:
                cell.append("●" + gap, style=f"bold {colour}")
            elif begin <= position <= end:
                cell.append("│" + gap, style=colour)
            else:
                cell.append(" " + gap)
        return cell.append(" ") if narrow else cell

    def label(self, position: int, event: EventBase | UnreadableEvent, narrow: bool = False) -> Text:
        """The call's id, in its lane's colour, for after the event's kind ("" outside the lanes); on a
        narrow pane only as much of its end as tells it from the others (call_gz: …gz)."""
        lanes = self._lanes_at(position, event)
        if lanes is None:
            return Text("")
        lane, order, _spans = lanes
        shown = _short(lane)
        if narrow:
            tail = _telling_tail(order)
            shown = lane if len(lane) <= tail + 1 else "…" + lane[-tail:]
        return Text(f"{shown} ", style=f"color({order.index(lane) + 2})")


def _telling_tail(ids: tuple[str, ...]) -> int:
    """How many characters of their ends tell these ids apart (at least 2)."""
    longest = max(len(call_id) for call_id in ids)
    return next((n for n in range(2, longest) if len({call_id[-n:] for call_id in ids}) == len(ids)), longest)


def _short(call_id: str) -> str:
    """Provider ids are long (call_ plus 24 characters); their end tells them apart."""
    return call_id if len(call_id) <= ID_WIDTH else "…" + call_id[-(ID_WIDTH - 1) :]
