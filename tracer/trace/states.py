"""The loop state of a recorded event (planning, acting, ...), from its decoded fields."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from executor.states import State, state_of


def state_of_fields(event: dict[str, Any]) -> State:
    """executor.state_of for an event read back as a dict: it needs only the kind, the call
    stack and the handled / is_finish flags, so no event model is rebuilt."""
    view = SimpleNamespace(
        kind=event.get("kind", ""),
        frames=tuple(event.get("frames", ())),
        is_finish=event.get("is_finish", False),
        handled=event.get("handled", False),
    )
    return state_of(view)  # type: ignore[arg-type]
