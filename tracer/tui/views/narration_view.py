"""The narration pane of a tutorial: the text of the stop the learner has reached, and where the next one is."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from ...debug.session import DebugSession
from .tutorial_place import after_last_stop, narration_language


def narration_text(session: DebugSession) -> Text:
    stops = session.stops
    current = session.current_stop()
    text = Text()
    if current is None:
        first = stops[0].seq if stops else None
        text.append("The tutorial has not reached its first stop yet.\n", style="italic")
        if first is not None:
            text.append(f"Press space to go to it (event {first}).", style="bold")
        return text
    number, stop = current
    here = "" if stop.seq == session.position else f" (at event {stop.seq}; you are at {session.position})"
    # Our own notes, still shown as plain Text so brackets in them are never read as markup.
    text.append(f"Stop {number}/{len(stops)} · {stop.title}{here}\n\n", style="bold")
    text.append(stop.text)
    following = session.stop_position(1)
    text.append("\n\n")
    if following is None:
        lang = narration_language(stops)
        text.append(after_last_stop(Path(session.store.path), lang), style="bold")
    else:
        text.append(f"space: next stop (event {following}) · backspace: previous stop", style="dim")
    return text
