"""What s, n and r do at a tool's function in a live run: the footer's labels and the status line's hint."""

from __future__ import annotations

from executor.events import ToolStartEvent

from ...debug.event_store import LiveStore
from ...debug.session import DebugSession
from ...debug.step_into import LOOPSCOPE_PACKAGES

HINTS_ZH = {"into": "s 逐行进入 {name}", "inside": "s/n 下一行 · r 运行到 {name} 结束"}


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


def function_hint(session: DebugSession) -> str:
    """The status line's hint there ("" elsewhere)."""
    place, name = _place(session)
    if not place:
        return ""
    if session.lang == "zh":
        return HINTS_ZH[place].format(name=name)
    return f"s: step into {name} line by line" if place == "into" else f"s/n: next line · r: run {name} to its end"


def function_keys(session: DebugSession) -> dict[str, str]:
    """The footer's words for the motion keys there, by binding id ({} elsewhere: their usual words)."""
    place, name = _place(session)
    if place == "into":
        return {"step-forward": f"step into {name}"}
    if place == "inside":
        return {"step-forward": "next line", "next-forward": "next line", "out-forward": f"run {name} to its end"}
    return {}
