"""Which panes a tutorial note talks about, and whether the debugger shows them at its stop."""

from __future__ import annotations

import re

from textual.widgets import TabbedContent

from tracer.tui.panes.source_view import SourceView

# What a note may say, and the pane it means. Tabbed panes must be named in the note's `pane`;
# the timeline, the call stack and the source are always on screen (the source except where a
# stop shows a tabbed pane: the narration then takes its place).
REFERENCES = {
    r"(?i:prompt pane|prompt 窗格)|提示词窗格": "prompt",
    r"(?i:variables pane|variables 窗格)|变量窗格": "variables",
    r"(?i:detail pane|detail 窗格|detail 面板)|详情窗格|详情面板": "detail",
    r"t column|t 列": "detail",  # the t column exists only on wide screens; the Detail pane always has t
    r"(?:[Ll]ook at|[Cc]heck|difference is in) (?:the |this run's )?settings|看(?:这次运行|这个事件里)的设置|不同在设置里": "detail",
    r"[Cc]all stack pane|调用栈窗格": "stack",
    r"[Ss]ource pane|源码窗格": "source",
    r"[Tt]imeline|时间线": "timeline",
}
ALWAYS_SHOWN = {"stack", "timeline", "source"}


def referenced(text: str) -> set[str]:
    return {pane for pattern, pane in REFERENCES.items() if re.search(pattern, text)}


def hidden_panes(app) -> list[str]:
    """The panes this stop's narration talks about that are not on screen."""
    current = app.session.current_stop()
    if current is None or current[1].seq != app.session.position:
        return []
    stop = current[1]
    wanted = referenced(stop.text) - {"source"} if getattr(stop, "pane", "") else referenced(stop.text)
    if getattr(stop, "pane", ""):
        wanted.add(stop.pane)
    missing = []
    for pane in wanted - ALWAYS_SHOWN:
        if app.screen.query_one(TabbedContent).active != pane:
            missing.append(f"the narration talks about the {pane} pane, which is not shown")
    if "source" in wanted and not app.screen.query_one(SourceView).display:
        missing.append("the narration talks about the source pane, which is hidden")
    return missing
