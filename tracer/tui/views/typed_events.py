"""An event of the session as one kind, checked: the session hands out any kind, or an unreadable line."""

from __future__ import annotations

from typing import TypeVar

from executor.events import EventBase

from ...debug.session import DebugSession

E = TypeVar("E", bound=EventBase)


def event_as(session: DebugSession, position: int, kind: type[E]) -> E | None:
    """The event at `position` if it is a `kind` (e.g. StepEvent); None for an unreadable line or another kind."""
    event = session.event(position)
    return event if isinstance(event, kind) else None
