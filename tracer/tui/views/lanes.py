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

    def cell(self, position: int, event: EventBase | UnreadableEvent | None = None) -> Text:
        """Blank for an event outside any lane; else ● in its own lane's column and │ in each
        other lane still running (started and not yet ended) at this event. Pass the event when
        the caller has it: outside the lanes nothing else is read."""
        event = self.event_at(position) if event is None else event
        lane = _lane_id(event)
        if lane is None or isinstance(event, UnreadableEvent):  # an unreadable line has no call id
            return Text("")
        order, spans = self._stretch(self.start_of(position))
        if len(order) < 2:
            return Text("")
        cell = Text(no_wrap=True)
        for index, (other, begin, end) in enumerate(spans[:MAX_LANES]):
            colour = f"color({index + 2})"
            if other == lane:
                cell.append("● ", style=f"bold {colour}")
            elif begin <= position <= end:
                cell.append("│ ", style=colour)
            else:
                cell.append("  ")
        cell.append(f"{event.t:6.3f}s ", style="dim")
        cell.append(f"{_short(lane):<{ID_WIDTH}} ", style=f"color({order.index(lane) + 2})")
        return cell


def _short(call_id: str) -> str:
    """Provider ids are long (call_ plus 24 characters); their end tells them apart."""
    return call_id if len(call_id) <= ID_WIDTH else "…" + call_id[-(ID_WIDTH - 1) :]
