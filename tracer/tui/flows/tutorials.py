"""Opening a tutorial from inside the debugger: the picker, then the chosen part with its narration stops."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tutorials.narration import NarrationMismatch, tutorial_stops
from tutorials.notes_file import NotesFileError
from tutorials.registry import TUTORIALS, Tutorial

from ...debug.event_store import LiveStore
from ...debug.options import DEFAULT_OPTIONS, DebuggerOptions
from ...debug.session import DebugSession, build_session
from ...i18n import Message, verbatim
from ...trace.reader import TraceFormatError, load_trace
from ..screens.tutorial_picker import TutorialPicker, part_number
from ..views.tutorial_place import after_last_stop, narration_language, next_part, tutorial_of
from .flow import Flow, KeyAction, flow_key
from .forking import first_line_of


def part_title(tutorial: Tutorial, number: int, lang: str) -> str:
    """The session title: the tutorial's title, and which part this is when it has several."""
    title = tutorial.title(lang)
    if len(tutorial.parts) == 1:
        return title
    label = tutorial.part_label(tutorial.parts[number], lang)
    return f"{title} · {part_number(number + 1, tutorial, lang)}: {label}"


def tutorial_session(
    name: str, number: int, lang: str, options: DebuggerOptions = DEFAULT_OPTIONS, at_last: bool = False
) -> DebugSession:
    """Part `number` of tutorial `name` on its fixture, at its first stop (its last: `at_last`). Raises LookupError
    (no recording), TraceFormatError, NarrationMismatch or NotesFileError, each one line."""
    tutorial = TUTORIALS[name]
    part = tutorial.parts[number]
    if not part.fixture.exists():
        raise LookupError(f"no recording at {part.fixture}; record it with `loopscope record {part.name}`")
    _header, events, _warning = load_trace(part.fixture)
    stops = tutorial_stops(part.name, lang, events)
    if tutorial.live:  # it steps into functions: a live run of the same events (at its first, chain_start)
        from ...debug.own_agent_run import live_tutorial_run  # late: only this runs an agent

        run = live_tutorial_run(name)
        title = f"{part_title(tutorial, number, lang)} · {run.scenario.source}"
        session = build_session(None, stops=stops, title=title, live=run, options=options)
        return session
    session = build_session(part.fixture, stops=stops, title=part_title(tutorial, number, lang), options=options)
    if stops:
        session.goto(stops[-1 if at_last else 0].seq)
    return session


def opened_message(name: str, number: int, session: DebugSession) -> Message:
    """What the status line says as a tutorial's part opens (and where a live one's agent was written)."""
    parts = len(TUTORIALS[name].parts)
    here = session.current_stop()  # the first stop, or the last when backspace came back to this part
    stops = {"stop": here[0] if here else 1, "stops": len(session.stops)}
    if parts > 1:
        said = Message("debugger.tutorial_part_opened", {"name": name, "part": number + 1, "parts": parts, **stops})
    else:
        said = Message("debugger.tutorial_opened", {"name": name, **stops})
    if number + 1 < parts:
        said = said.then(Message("debugger.other_part"))
    if isinstance(session.store, LiveStore):
        from ...debug.live_run import LiveRun  # late: a live tutorial has loaded it; a recorded one never needs it
        from ...debug.own_agent_run import live_tutorial_message

        if isinstance(session.store.run, LiveRun):  # a tutorial's own run, not a framework agent's
            said = said.then(live_tutorial_message(session.store.run))
    return said


class TutorialFlow(Flow):
    KEYS = [flow_key("T", "tutorials", "tutorials", show=False)]

    def actions(self) -> dict[str, KeyAction]:
        return {"tutorials": self.pick}

    def pick(self) -> None:
        if self.blocked_by:
            self.say(Message("debugger.wait", {"reason": self.blocked_by}))
            return
        lang = narration_language(self.session.stops)
        path = self.session.store.path
        current = tutorial_of(Path(path)) if path is not None else None
        self.app.push_screen(TutorialPicker(lang, current), lambda chosen: self._open_tutorial(chosen, lang))

    def after_last_stop(self) -> None:
        """space past the last stop: on to the next part, else name the other tutorials."""
        path = self.session.store.path
        assert path is not None  # stops come with a tutorial's recording
        lang = narration_language(self.session.stops)
        following = next_part(path)
        if following is None:  # the narration lists the other tutorials; a status line only points there
            # The notes' own words after the last stop are content (the tutorial's), said as they are.
            end = (
                Message("debugger.tutorial_end")
                if tutorial_of(path)
                else verbatim(" ".join(after_last_stop(path, lang).split()))
            )
            self.say(end)
            return
        self._open_tutorial(following, lang, lead=Message("debugger.end_of_part"))

    def before_first_stop(self) -> None:
        """backspace at a part's first stop: back to the last stop of the part before (a live part has none)."""
        path = self.session.store.path
        found = tutorial_of(Path(path)) if path is not None else None
        if found is None or found[1] == 0:
            self.say(Message("debugger.no_further_stop"))
            return
        lang = narration_language(self.session.stops)
        self._open_tutorial((found[0], found[1] - 1), lang, lead=Message("debugger.back_a_part"), at_last=True)

    def _open_tutorial(
        self, chosen: tuple[str, int] | None, lang: str, lead: Message | None = None, at_last: bool = False
    ) -> None:
        if chosen is None:
            self.say(Message("debugger.no_tutorial"))
            return
        name, number = chosen
        try:
            # Priced and trusted as this session was; it speaks its narration's language, and the
            # --break specs were this trace's.
            options = replace(self.session.options, breakpoints=(), lang=None)
            session = tutorial_session(name, number, lang, options, at_last)
        except (LookupError, TraceFormatError, NarrationMismatch, NotesFileError, OSError) as error:
            self.say(Message("debugger.cannot_open_tutorial", {"name": name, "problem": first_line_of(error)}))
            return
        here = session.current_stop()
        pane = getattr(here[1], "pane", "") if here else ""  # a stop that names a pane opens it
        said = opened_message(name, number, session)
        self.open_session(session, lead.then(said) if lead else said, tab=pane or "narration")
