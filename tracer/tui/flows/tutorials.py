"""Opening a tutorial from inside the debugger: the picker, then the chosen part with its narration stops."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from textual.binding import Binding

from tutorials.narration import TAKEAWAYS_TITLE, NarrationMismatch, tutorial_stops
from tutorials.notes_file import LANGUAGES, NotesFileError
from tutorials.registry import TUTORIALS, Tutorial

from ...debug.session import DebugSession, build_session
from ...trace.reader import TraceFormatError, load_trace
from ..messages import OpenSession
from ..screens.tutorial_picker import TutorialPicker, part_number
from .flow import Flow
from .forking import first_line_of


def narration_language(stops: Sequence[Any]) -> str:
    """The language of a session's tutorial stops (told apart by the notes' titles), else English."""
    titles = {stop.title for stop in stops}
    for lang in LANGUAGES:
        known = {note.titles[lang] for tutorial in TUTORIALS.values() for note in tutorial.notes.notes}
        if titles & (known | {TAKEAWAYS_TITLE[lang]}):
            return lang
    return "en"


def tutorial_of(trace_path: Path) -> tuple[str, int] | None:
    """(tutorial name, 0-based part) whose fixture is this file, or None."""
    for name, tutorial in TUTORIALS.items():
        for number, part in enumerate(tutorial.parts):
            if part.fixture.resolve() == trace_path.resolve():
                return name, number
    return None


def part_title(tutorial: Tutorial, number: int, lang: str) -> str:
    """The session title: the tutorial's title, and which part this is when it has several."""
    title = tutorial.title(lang)
    if len(tutorial.parts) == 1:
        return title
    label = tutorial.part_label(tutorial.parts[number], lang)
    return f"{title} · {part_number(number + 1, tutorial, lang)}: {label}"


def tutorial_session(name: str, number: int, lang: str) -> DebugSession:
    """Part `number` of tutorial `name` on its fixture, at its first stop. Raises LookupError
    (no recording), TraceFormatError, NarrationMismatch or NotesFileError, each one line."""
    tutorial = TUTORIALS[name]
    part = tutorial.parts[number]
    if not part.fixture.exists():
        raise LookupError(f"no recording at {part.fixture}; record it with `loopscope record {part.name}`")
    _header, events, _warning = load_trace(part.fixture)
    stops = tutorial_stops(part.name, lang, events)
    session = build_session(part.fixture, stops=stops, title=part_title(tutorial, number, lang))
    if stops:
        session.goto(stops[0].seq)
    return session


def opened_message(name: str, number: int, session: DebugSession) -> str:
    parts = len(TUTORIALS[name].parts)
    where = f"tutorial {name}" + (f", part {number + 1} of {parts}" if parts > 1 else "")
    later = " · T picks another part" if number + 1 < parts else ""
    return f"{where}: stop 1/{len(session.stops)} · space walks the stops{later}"


class TutorialFlow(Flow):
    KEYS = [Binding("T", "flow('tutorials', 'pick')", "tutorials", show=False, id="tutorials")]

    def pick(self) -> None:
        if self.blocked_by:
            self.say(f"wait: {self.blocked_by}")
            return
        lang = narration_language(self.session.stops)
        current = tutorial_of(Path(self.session.store.path))
        self.app.push_screen(TutorialPicker(lang, current), lambda chosen: self._open_tutorial(chosen, lang))

    def _open_tutorial(self, chosen: tuple[str, int] | None, lang: str) -> None:
        if chosen is None:
            self.say("no tutorial opened")
            return
        name, number = chosen
        try:
            session = tutorial_session(name, number, lang)
        except (LookupError, TraceFormatError, NarrationMismatch, NotesFileError, OSError) as error:
            self.say(f"cannot open tutorial {name}: {first_line_of(error)}")
            return
        self.post_message(OpenSession(session, opened_message(name, number, session), tab="narration"))
