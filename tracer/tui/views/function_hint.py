"""The status line's hint at a tool's function in a live run: what s, n and r do there."""

from __future__ import annotations

from ...debug.session import DebugSession
from ...debug.step_into import LOOPSCOPE_PACKAGES

HINTS_ZH = {"into": "s 逐行进入 {name} · n 整个运行它", "inside": "s/n 下一行 · r 运行到 {name} 结束 · c 继续"}


def function_hint(session: DebugSession) -> str:
    """"" except live at the newest event: at a tool_start whose function s can step into, or inside it."""
    store = session.store
    if not store.live or store.complete or session.position != len(store) - 1:
        return ""
    inside = store.function_frame(session.position)
    lang = getattr(session, "lang", "en")
    if inside is not None:
        name, line = f"{inside.function}()", inside.line
        return HINTS_ZH["inside"].format(name=name, line=line) if lang == "zh" else \
            f"s/n: next line · r: run to the end of {name} · c: continue"
    event = session.event()
    callee = getattr(event, "callee", None)
    if getattr(event, "kind", "") != "tool_start" or callee is None or callee.file.startswith(LOOPSCOPE_PACKAGES) \
            or store.run.why_not_step_into(event) is not None:
        return ""
    name = f"{callee.qualname or callee.function}()"
    return HINTS_ZH["into"].format(name=name) if lang == "zh" else f"s: step into {name} line by line · n: run it whole"
