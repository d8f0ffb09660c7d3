"""Opening a tutorial from inside the debugger: the picker, then the chosen part with its narration stops."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tutorials.narration import NarrationMismatch, tutorial_stops
from tutorials.notes_file import NotesFileError
from tutorials.predict import PredictQuiz, PredictStop, predict_stops
from tutorials.predict_scores import Score, record_answer
from tutorials.registry import TUTORIALS, Tutorial

from ...debug.event_store import LiveStore
from ...debug.options import DEFAULT_OPTIONS, DebuggerOptions
from ...debug.session import DebugSession, build_session
from ...i18n import Message, verbatim
from ...trace.reader import TraceFormatError, load_trace
from ..panes.predict_pane import Verdict
from ..screens.predict_screen import PredictScreen
from ..screens.tutorial_picker import TutorialPicker, part_number
from ..views.tutorial_place import after_last_stop, narration_language, next_part, tutorial_of
from .flow import Flow, KeyAction, flow_key, stop_tab
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


def session_tutorial(session: DebugSession) -> tuple[str, int] | None:
    """(tutorial name, 0-based part) a session shows, or None. A live tutorial writes a trace of its own,
    so it is known by its notes' titles instead of its recording."""
    path = session.store.path
    found = tutorial_of(Path(path)) if path is not None else None
    if found is None and session.stops:
        titles = {stop.title for stop in session.stops}
        for name, tutorial in TUTORIALS.items():
            notes = {title for note in tutorial.notes.notes for title in note.titles.values()}
            if tutorial.live and titles & notes:
                return name, 0
    return found


class TutorialFlow(Flow):
    """The tutorial picker, the next part, and the predict quiz: with predict on, a move forward that would
    show an unanswered question's event stops just before it and asks (the screen calls
    hold_before_question before it draws); the answer shows the event, and the verdict under the panes."""

    KEYS = [flow_key("T", "tutorials", "tutorials", show=False), flow_key("p", "predict", "predict")]

    def __init__(self, session: DebugSession, **kwargs) -> None:
        super().__init__(session, **kwargs)
        self.predicting = session.options.predict
        self._quiz: PredictQuiz | None = None
        self._shown = -1  # the event last drawn: -1 first, so a question at the opening stop is asked too
        self._asking = False

    def actions(self) -> dict[str, KeyAction]:
        return {"tutorials": self.pick, "predict": self.toggle_predict}

    # -- predict ------------------------------------------------------------------------------------
    @property
    def quiz(self) -> PredictQuiz | None:
        """This part's questions (read on first use), or None outside tutorials."""
        if self._quiz is None:
            found = session_tutorial(self.session)
            if found is None:
                return None
            name, number = found
            part = TUTORIALS[name].parts[number]
            try:  # the recording's events: a live tutorial's run repeats them, seq for seq
                _header, events, _warning = load_trace(part.fixture)
                stops = predict_stops(part.name, narration_language(self.session.stops), events)
            except (NotesFileError, TraceFormatError, OSError) as error:  # a test keeps the shipped ones fitting
                self.say(Message("predict.misfit", {"problem": first_line_of(error)}))
                stops = []
            self._quiz = PredictQuiz(stops)
        return self._quiz

    def toggle_predict(self) -> None:
        quiz = self.quiz if self.session.stops else None
        if quiz is None or not quiz.stops:
            self.say(Message("predict.none" if quiz is not None else "predict.not_tutorial"))
            return
        self.predicting = not self.predicting
        self._shown = self.session.position  # what is on screen already is not asked about
        ahead = sum(1 for stop in quiz.stops if stop.id not in quiz.answers and stop.hidden_from > self._shown)
        if not self.predicting:
            self.say(Message("predict.off"))
        else:
            self.say(Message("predict.on", {"count": ahead}) if ahead else Message("predict.on_done"))
        self.redraw()

    def hold_before_question(self) -> None:
        """Before the panes are drawn: when predict is on and the session moved forward onto an unanswered
        question's hidden events, go back to just before them and ask it."""
        shown, self._shown = self._shown, self.session.position
        if not self.predicting or self._asking or self.session.position <= shown or self.quiz is None:
            return
        due = self.quiz.due(shown, self.session.position)
        if due:
            intended = self.session.position
            self.session.goto(due[0].hidden_from - 1)
            self._shown = self.session.position
            self._ask(due, intended)

    def horizon(self) -> int | None:
        """The first event the timeline keeps from sight (an unanswered question's), or None."""
        if not self.predicting or self._quiz is None:
            return None
        return self._quiz.horizon(self.session.position)

    def verdicts(self) -> list[Verdict]:
        """The answered questions about the current event (or the hidden events before it), for the pane."""
        if not self.predicting or self._quiz is None:
            return []
        quiz = self._quiz
        return [
            (stop, choice, quiz.number(stop), len(quiz.stops))
            for stop, choice in quiz.answered_at(self.session.position)
        ]

    def _ask(self, due: list[PredictStop], intended: int) -> None:
        assert self._quiz is not None
        self._asking = True
        stop = due[0]
        number, total = self._quiz.number(stop), len(self._quiz.stops)
        last = len(stop.choices)
        self.say(Message("predict.asking", {"number": number, "total": total, "last": last, "seq": stop.hidden_from}))
        lang = narration_language(self.session.stops)
        self.app.push_screen(
            PredictScreen(stop, number, total, lang), lambda choice: self._answered(due, intended, choice)
        )

    def _answered(self, due: list[PredictStop], intended: int, choice: int | None) -> None:
        assert self._quiz is not None
        stop = due[0]
        if choice is None:  # not now: the event stays hidden, and a step forward asks again
            self._asking = False
            self.say(Message("predict.not_now", {"seq": stop.hidden_from}))
            self.redraw()
            return
        right = self._quiz.answer(stop, choice)
        saved = self._keep_score(stop, right)
        if len(due) > 1:  # another question about the same event, before it is shown
            self._ask(due[1:], intended)
            return
        self._asking = False
        # the move goes on as far as it meant to, but no further than the event this question was about
        self.session.goto(min(intended, stop.seq))
        self._shown = self.session.position
        said = Message("predict.answered", {"right": saved[0].right, "asked": saved[0].asked})
        self.say(said.then(saved[1]))
        self.redraw()

    def _keep_score(self, stop: PredictStop, right: bool) -> tuple[Score, Message | None]:
        """The tutorial's score with this answer kept in the learner's file (this part's alone, and why,
        when the file cannot be written)."""
        found = session_tutorial(self.session)
        assert found is not None and self._quiz is not None  # a quiz is only asked in a tutorial
        try:
            return record_answer(found[0], stop.id, right), None
        except OSError as error:
            answers = [self._quiz.answers[s.id] == s.answer for s in self._quiz.stops if s.id in self._quiz.answers]
            return Score(sum(answers), len(answers)), Message("predict.unsaved", {"problem": first_line_of(error)})

    # -- opening tutorials --------------------------------------------------------------------------

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
            # Priced and trusted as this session was, predicting if this one is; it speaks its
            # narration's language, and the --break specs were this trace's.
            options = replace(self.session.options, breakpoints=(), lang=None, predict=self.predicting)
            session = tutorial_session(name, number, lang, options, at_last)
        except (LookupError, TraceFormatError, NarrationMismatch, NotesFileError, OSError) as error:
            self.say(Message("debugger.cannot_open_tutorial", {"name": name, "problem": first_line_of(error)}))
            return
        said = opened_message(name, number, session)
        self.open_session(session, lead.then(said) if lead else said, tab=stop_tab(session))
