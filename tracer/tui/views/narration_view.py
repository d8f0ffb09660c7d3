"""The narration pane of a tutorial: the text of the stop the learner has reached, and where the next one is."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from ...debug.session import DebugSession
from ...i18n import say
from ...report.text.cjk_wrap import WrappedText
from .tutorial_place import after_last_stop


def _narration(parts: list[tuple[str, str]]) -> WrappedText:
    """Paragraphs (text, style), wrapped at render time by cell width as `--print` wraps them;
    still plain Text, so brackets in our own notes are never read as markup."""
    return WrappedText(Text.assemble(*parts), hanging=True)


def narration_text(session: DebugSession, lang: str = "en") -> WrappedText:
    """The current stop's notes under its heading (the notes are the tutorial's; the rest is ours, in `lang`)."""
    stops = session.stops
    current = session.current_stop()
    if current is None:
        first = stops[0].seq if stops else None
        parts = [(say("panes.narration_before", lang) + "\n", "italic")]
        if first is not None:
            parts.append((say("panes.narration_go", lang, first=first), "bold"))
        return _narration(parts)
    number, stop = current
    here = (
        ""
        if stop.seq == session.position
        else say("panes.narration_here", lang, seq=stop.seq, position=session.position)
    )
    # Our own notes, still shown as plain Text so brackets in them are never read as markup.
    parts = [
        (say("panes.narration_stop", lang, number=number, stops=len(stops), title=stop.title) + here, "bold"),
        ("\n\n", ""),
        (stop.text, ""),
        ("\n\n", ""),
    ]
    following = session.stop_position(1)
    if following is not None:
        parts.append((say("panes.narration_next", lang, following=following), "dim"))
    elif session.store.path is not None:  # always: stops come with a tutorial's recording
        parts.append((after_last_stop(Path(session.store.path), lang), "bold"))
    return _narration(parts)
