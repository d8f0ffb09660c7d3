"""What s, n and r do at a tool's function in a live run: the footer's labels and the status line's hint."""

from __future__ import annotations

from executor.events import ToolStartEvent

from ...debug.event_store import LiveStore
from ...debug.session import DebugSession
from ...debug.step_into import LOOPSCOPE_PACKAGES
from ...i18n import Message


def _place(session: DebugSession) -> tuple[str, str]:
    """("into", name) at a tool_start whose function s steps into, ("inside", name) paused inside it,
    ("", "") elsewhere (always in replay: a recording has no lines to run)."""
    store = session.store
    if not isinstance(store, LiveStore) or store.complete or session.position != len(store) - 1:
        return "", ""
    inside = store.function_frame(session.position)
    if inside is not None:
        return "inside", f"{inside.function}()"
    event = store.event(session.position)
    callee = event.callee if isinstance(event, ToolStartEvent) else None
    if callee is None or callee.file.startswith(LOOPSCOPE_PACKAGES) or store.run.why_not_step_into(event) is not None:
        return "", ""
    return "into", f"{callee.qualname or callee.function}()"


def function_hint(session: DebugSession) -> Message | None:
    """The status line's hint there (None elsewhere)."""
    place, name = _place(session)
    return Message(f"keys.hint.{place}", {"name": name}) if place else None


def function_keys(session: DebugSession) -> dict[str, Message]:
    """The footer's words for the motion keys there, by binding id ({} elsewhere: their usual words)."""
    place, name = _place(session)
    if place == "into":
        return {"step-forward": Message("keys.hint.step-into", {"name": name})}
    if place == "inside":
        line = Message("keys.hint.next-line")
        return {
            "step-forward": line,
            "next-forward": line,
            "out-forward": Message("keys.hint.run-to-end", {"name": name}),
        }
    return {}
