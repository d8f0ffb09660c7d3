"""Where a session is among the tutorials: which tutorial and part, its language, and what comes after it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tutorials.narration import TAKEAWAYS_TITLE
from tutorials.notes_file import LANGUAGES
from tutorials.registry import TUTORIALS

from ...i18n import say


def narration_language(stops: Sequence[Any]) -> str:
    """The language of a session's tutorial stops (told apart by the notes' titles), else English."""
    titles = {stop.title for stop in stops}
    for lang in LANGUAGES:
        if TAKEAWAYS_TITLE[lang] in titles:
            return lang
        # Tutorial by tutorial, stopping at the first that matches: each one's notes file is parsed
        # on first use, and the debugger's first frame should not wait for all ten.
        for tutorial in TUTORIALS.values():
            if titles & {note.titles[lang] for note in tutorial.notes.notes}:
                return lang
    return "en"


def tutorial_of(trace_path: Path) -> tuple[str, int] | None:
    """(tutorial name, 0-based part) whose fixture is this file, or None."""
    for name, tutorial in TUTORIALS.items():
        for number, part in enumerate(tutorial.parts):
            if part.fixture.resolve() == trace_path.resolve():
                return name, number
    return None


def next_part(trace_path: Path) -> tuple[str, int] | None:
    """The part that follows this tutorial part, or None at the last part (or outside tutorials)."""
    found = tutorial_of(trace_path)
    if found is None or found[1] + 1 >= len(TUTORIALS[found[0]].parts):
        return None
    return found[0], found[1] + 1


def other_tutorials(trace_path: Path, lang: str) -> list[str]:
    """ "name — title" of every tutorial but this one."""
    found = tutorial_of(trace_path)
    return [
        f"{name} — {tutorial.title(lang)}" for name, tutorial in TUTORIALS.items() if found is None or name != found[0]
    ]


def after_last_stop(trace_path: Path, lang: str) -> str:
    """What the narration says below its last stop: the next part, or the other tutorials."""
    following = next_part(trace_path)
    if following is not None:
        name, number = following
        label = TUTORIALS[name].part_label(TUTORIALS[name].parts[number], lang)
        parts = len(TUTORIALS[name].parts)
        return say("panes.part_end", lang, number=number + 1, parts=parts, label=label)
    if tutorial_of(trace_path) is None:
        return say("panes.last_stop", lang)
    others = "\n".join(f"  {line}" for line in other_tutorials(trace_path, lang))
    return say("panes.tutorial_end", lang, others=others)
