"""A tool's recorded calls followed lane by lane (tool_call_id): each call's events, from its tool_start to its end."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from executor.events import Event, ToolStartEvent

Call = TypeVar("Call")


def follow_tool_calls(
    events: Iterable[Event], tool: str, start: Callable[[ToolStartEvent], Call], calls: list[Call]
) -> Iterator[tuple[Call, Event]]:
    """(call, event) for each event in an open call's lane. A tool_start of `tool` opens a call (made by
    `start`, appended to `calls`); its tool_end or tool_error is handed over, then closes the lane.
    Parallel calls each have their lane (their tool_call_id); a sequential run's one lane is None."""
    open_calls: dict[str | None, Call] = {}
    for event in events:
        lane = getattr(event, "tool_call_id", None)
        if isinstance(event, ToolStartEvent) and event.tool == tool:
            open_calls[lane] = start(event)
            calls.append(open_calls[lane])
            continue
        call = open_calls.get(lane)
        if call is None:
            continue
        yield call, event
        if event.kind in ("tool_end", "tool_error") and getattr(event, "tool", None) == tool:
            del open_calls[lane]
