"""The narration pane of a tutorial: the text of the stop the learner has reached, and where the next one is."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from ...debug.session import DebugSession
from ...report.text.cjk_wrap import WrappedText
from .tutorial_place import after_last_stop

LABELS = {
    "en": {
        "stop": "Stop",
        "here": " (at event {seq}; you are at {position})",
        "next": "space: next stop (event {following}) · backspace: previous stop",
        "before": "The tutorial has not reached its first stop yet.\n",
        "go": "Press space to go to it (event {first}).",
    },
    "zh": {
        "stop": "停靠点",
        "here": "（停靠点在事件 {seq}；你在事件 {position}）",
        "next": "空格：下一个停靠点（事件 {following}）· 退格：上一个停靠点",
        "before": "讲解还没到第一个停靠点。\n",
        "go": "按空格过去（事件 {first}）。",
    },
}


def _narration(parts: list[tuple[str, str]]) -> WrappedText:
    """Paragraphs (text, style), wrapped at render time by cell width as `--print` wraps them;
    still plain Text, so brackets in our own notes are never read as markup."""
    return WrappedText(Text.assemble(*parts), hanging=True)


def narration_text(session: DebugSession) -> WrappedText:
    stops = session.stops
    lang = session.lang
    words = LABELS.get(lang, LABELS["en"])
    current = session.current_stop()
    if current is None:
        first = stops[0].seq if stops else None
        parts = [(words["before"], "italic")]
        if first is not None:
            parts.append((words["go"].format(first=first), "bold"))
        return _narration(parts)
    number, stop = current
    here = "" if stop.seq == session.position else words["here"].format(seq=stop.seq, position=session.position)
    # Our own notes, still shown as plain Text so brackets in them are never read as markup.
    parts = [
        (f"{words['stop']} {number}/{len(stops)} · {stop.title}{here}", "bold"),
        ("\n\n", ""),
        (stop.text, ""),
        ("\n\n", ""),
    ]
    following = session.stop_position(1)
    if following is not None:
        parts.append((words["next"].format(following=following), "dim"))
    elif session.store.path is not None:  # always: stops come with a tutorial's recording
        parts.append((after_last_stop(Path(session.store.path), lang), "bold"))
    return _narration(parts)
