"""The debugger's one screen: lays out the panes, binds the flows' keys, and redraws on their messages."""

from __future__ import annotations

import dataclasses
import time

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from ...debug.session import DebugSession, UnreadableEvent
from ...debug.source_map import hash_warning, moved_line_warning, read_source, read_user_source
from ...report.literal import literal
from ..chrome import chrome_language, localise
from ..flows.asking import AskingFlow
from ..flows.diffing import DiffFlow
from ..flows.filtering import FilterFlow
from ..flows.forking import ForkFlow, timeline_title
from ..flows.playground import PlaygroundFlow
from ..flows.stepping import SteppingFlow
from ..flows.tutorials import TutorialFlow
from ..messages import Busy, ForkWith, OpenSession, PastLastStop, Redraw, Say, Waiting
from ..panes.breakpoints_pane import BreakpointsPane
from ..panes.call_stack import CallStackPane
from ..panes.keys_footer import KeysFooter
from ..panes.prompt_pane import PromptPane
from ..panes.source_view import SourceView
from ..panes.status_line import StatusLine
from ..panes.text_pane import TextPane
from ..panes.timeline import EventTimeline
from ..views.detail_view import detail_text
from ..views.function_hint import function_keys
from ..views.narration_view import narration_text
from ..views.prompt_view import prompt_text
from ..views.variables_view import variables_text
from .help_screen import HelpScreen

FLOWS = {
    "stepping": SteppingFlow,
    "asking": AskingFlow,
    "forking": ForkFlow,
    "diffing": DiffFlow,
    "tutorials": TutorialFlow,
    "filtering": FilterFlow,
    "playground": PlaygroundFlow,
}
PROGRESS_EVERY = 0.5  # seconds between redraws while a long re-execution runs
PANES = [
    ("1", "variables", "variables pane"),
    ("2", "prompt", "prompt pane"),
    ("3", "detail", "detail pane"),
    ("4", "breakpoints", "breakpoints pane"),
    ("5", "narration", "narration pane (tutorials)"),
]


class DebuggerScreen(Screen):
    """Each flow declares its own keys (KEYS) and does the work behind them; the screen only binds
    them, hands the call down to the flow, and redraws the panes when a flow says so."""

    # Scrolling comes right after the motions: an 80-column footer is cut after about five keys.
    SCROLLING = [
        Binding("j", "scroll_pane(1)", "scroll the pane", key_display="j/k", id="scroll-pane-down"),
        Binding("k", "scroll_pane(-1)", "scroll the pane up", show=False, id="scroll-pane-up"),
    ]
    BINDINGS = (
        SteppingFlow.KEYS
        + SCROLLING
        + [binding for name, flow in FLOWS.items() if name != "stepping" for binding in flow.KEYS]
        + [Binding(key, f"tab('{name}')", text, show=False, id=f"show-{name}") for key, name, text in PANES]
        + [
            Binding("z", "wide_source", "wide source (hide the timeline)", show=False, id="wide-source"),
            Binding("question_mark", "help", "help", id="help"),
        ]
    )

    def __init__(self, session: DebugSession) -> None:
        super().__init__()
        self.session = session
        session.wait_for_locals = False  # no frame waits for the re-execution: a worker does it (below)
        self.reenacting = False  # a worker re-executes the recording for the real locals (asked or running)
        self.busy = ""
        self.lang = session.lang = session.requested_lang or chrome_language(session.stops)
        if self.lang != "en":  # the footer and help read the descriptions: they speak the notes' language
            for key, bindings in self._bindings.key_to_bindings.items():
                self._bindings.key_to_bindings[key] = [
                    dataclasses.replace(b, description=localise(b.description, self.lang)) for b in bindings
                ]
        self._plain_labels = {b.id: b.description for bs in self._bindings.key_to_bindings.values() for b in bs}
        self._motion_labels: dict[str, str] = {}
        self._resumed = False

    def _label_motions(self) -> None:
        """The footer says what s / n / r do at a tool_start of your tool and inside its function (live)."""
        labels = function_keys(self.session)
        if labels == self._motion_labels:
            return
        self._motion_labels = labels
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [
                dataclasses.replace(
                    b, description=localise(labels.get(b.id, self._plain_labels.get(b.id, b.description)), self.lang)
                )
                for b in bindings
            ]
        self.refresh_bindings()

    def compose(self) -> ComposeResult:
        session = self.session
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                yield EventTimeline(session, id="timeline")
                yield CallStackPane(id="stack")
            with Vertical(id="right"):
                with Vertical(id="source-pane"):
                    yield Static(id="source-warning")
                    yield SourceView(id="source")
                    yield TextPane(id="stop-text")  # the narration, when a stop shows another pane below
                with TabbedContent(id="tabs", initial="narration" if session.stops else "variables"):
                    if session.stops:
                        with TabPane(localise("Narration", self.lang), id="narration"):
                            yield TextPane(id="narration-text")
                    with TabPane(localise("Variables", self.lang), id="variables"):
                        yield TextPane(id="variables-text")
                    with TabPane(localise("Prompt", self.lang), id="prompt"):
                        yield PromptPane(id="prompt-pane")
                    with TabPane(localise("Detail", self.lang), id="detail"):
                        yield TextPane(id="detail-text")
                    with TabPane(localise("Breakpoints", self.lang), id="breakpoints"):
                        yield BreakpointsPane(session.breakpoints, id="breakpoints-list")
        yield StatusLine(id="status")
        yield KeysFooter()
        for name, flow in FLOWS.items():
            yield flow(session, id=f"flow-{name}")

    def on_mount(self) -> None:
        store = self.session.store
        title = timeline_title(store.header)
        self.query_one("#timeline").border_title = localise(title, self.lang) if isinstance(title, str) else title
        self.query_one("#stack").border_title = localise("Call stack", self.lang)
        self.query_one("#timeline").focus()
        if store.warning:  # stays visible after the status line moves on
            self.query_one("#timeline").border_subtitle = literal("⚠ truncated: the run did not finish")
        warnings = [w for w in (store.warning, self.session.breakpoints.warning) if w]
        if warnings:
            self.session.message = "warning: " + " · ".join(warnings)
        elif getattr(store, "import_note", None):  # another tool's trace: say what was recognised
            self.session.message = store.import_note
        if store.needs_background_index:
            self.query_one(SteppingFlow).start_indexing()
        self.refresh_panes()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # The first resume comes as the screen mounts, its widgets styled a moment before: restyling
        # them all again was ~10 ms of the first frame. Later ones (back from help) restyle as usual.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False  # read by Screen's own handler, which runs after this one

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Tutorial keys exist only when there are stops; elsewhere they are hidden from the footer.
        if parameters[:2] == ("stepping", "tutorial_stop") or (action == "tab" and parameters == ("narration",)):
            return bool(self.session.stops)
        return True

    # -- keys: handed down to the flow that owns them ---------------------------------------------
    def action_flow(self, name: str, method: str, first: object = None, second: object = None) -> None:
        # Named parameters, not *args: Textual passes an action only as many arguments as it can count.
        args = [arg for arg in (first, second) if arg is not None]
        getattr(self.query_one(f"#flow-{name}"), method)(*args)

    def action_tab(self, name: str) -> None:
        if name != "narration" or self.session.stops:
            self.query_one(TabbedContent).active = name

    def action_scroll_pane(self, direction: int) -> None:
        """Scroll the shown right-hand pane (narration, variables, prompt …) whatever has the focus;
        at a stop that shows another pane, the narration above it (it is what the learner reads first)."""
        stop_text = self.query_one("#stop-text", TextPane)
        pane = stop_text if stop_text.display else self.query_one(TabbedContent).active_pane
        scrollers = (
            [pane] if pane is stop_text else [w for w in pane.query("*") if w.allow_vertical_scroll] if pane else []
        )
        if scrollers:
            target = scrollers[0]
            target.scroll_relative(y=direction * max(target.scrollable_content_region.height // 2, 1), animate=False)

    def action_wide_source(self) -> None:
        left = self.query_one("#left")
        left.display = not left.display
        self.session.message = (
            "z: the timeline is back" if left.display else "z: wide source; the timeline is hidden (z brings it back)"
        )
        self.refresh_panes()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.help_sections(), self.lang))

    def help_sections(self):
        moving = SteppingFlow.KEYS + AskingFlow.KEYS[:4] + FilterFlow.KEYS
        return [
            ("Moving", moving),
            ("Looking around", [b for b in self.BINDINGS if b not in moving] + list(self.app.BINDINGS)),
            (
                "In the timeline / source pane (focus with tab)",
                EventTimeline.BINDINGS[:2]
                + [Binding("click", "", "go to that event / frame"), SourceView.BINDINGS[-1]],
            ),
            ("In the breakpoints pane (4, then tab to focus it)", BreakpointsPane.BINDINGS[2:]),
        ]

    # -- messages: from the flows and panes ---------------------------------------------------------
    def on_say(self, message: Say) -> None:
        self.query_one(StatusLine).show(self.session, self.busy)

    def on_past_last_stop(self, message: PastLastStop) -> None:
        self.query_one(TutorialFlow).after_last_stop()

    def on_waiting(self, message: Waiting) -> None:
        self.query_one(StatusLine).show(self.session, message.text)

    def on_busy(self, message: Busy) -> None:
        self.busy = message.reason
        for flow in self.query(".flow"):
            flow.blocked_by = self.busy
        self.query_one(StatusLine).show(self.session, self.busy)
        if not self.busy:  # keys typed while busy run now, in order
            self.call_after_refresh(self.query_one(SteppingFlow).run_queued)

    def on_redraw(self, message: Redraw) -> None:
        if message.grew:
            self.query_one(EventTimeline).grow()
        if message.breakpoints:
            self.query_one(EventTimeline).breakpoints_changed()
            self.query_one(BreakpointsPane).show()
        if message.tab is not None:
            self.action_tab(message.tab)
        self.refresh_panes()

    def on_open_session(self, message: OpenSession) -> None:
        # Handed to the app, not awaited here: switching screens waits for this screen to finish
        # its messages, and this handler is one of them.
        self.app.call_later(self.app.open_session, message.session, message.text, message.tab)

    def on_fork_with(self, message: ForkWith) -> None:
        self.query_one(ForkFlow).fork_with(message.at, "reply", message.text)

    def on_breakpoints_pane_changed(self, _message: BreakpointsPane.Changed) -> None:
        self.on_redraw(Redraw(breakpoints=True))

    def on_source_view_toggle_line(self, message: SourceView.ToggleLine) -> None:
        self.query_one(AskingFlow).toggle_breakpoint(message.file, message.line)

    def on_event_timeline_picked(self, message: EventTimeline.Picked) -> None:
        self.session.goto(message.position)
        self.session.message = f"event {self.session.position}"
        self.refresh_panes()

    def on_call_stack_pane_frame_picked(self, message: CallStackPane.FramePicked) -> None:
        self.session.frame_up = message.frame_up
        self.refresh_panes()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._show_tab(event.pane.id or "")

    # -- drawing ------------------------------------------------------------------------------------
    def refresh_panes(self) -> None:
        session = self.session
        self.query_one(EventTimeline).follow()
        self.query_one(CallStackPane).show(session.frames(), session.frame_up)
        self._show_source()
        self._show_stop_pane()
        self._show_tab(self.query_one(TabbedContent).active)
        self.query_one(StatusLine).show(session, self.busy)
        self._label_motions()
        if session.locals_pending() and not self.reenacting:
            self.reenacting = True
            self.call_after_refresh(self._reenact)  # once this frame is on the screen

    @work(thread=True, group="reenact", exit_on_error=False, description="re-executing the run for its locals")
    def _reenact(self) -> None:
        """Re-execute the recording up to the current event (wherever the user has moved meanwhile),
        then redraw: the real locals replace the rebuilt ones. Off the UI thread: 2,000 events take seconds."""
        worker, session = get_current_worker(), self.session
        shown = time.monotonic()
        try:
            while session.locals_pending() and not worker.is_cancelled:
                session.store.reenact_one()
                if time.monotonic() - shown > PROGRESS_EVERY:
                    shown = time.monotonic()
                    self.app.call_from_thread(self.refresh_panes)  # the variables pane says how far
        except RuntimeError:  # the app closed meanwhile
            return
        finally:
            self.reenacting = False
        if not worker.is_cancelled:
            try:
                self.app.call_from_thread(self.refresh_panes)
            except RuntimeError:
                pass  # the app closed meanwhile: nothing left to redraw

    def _show_source(self) -> None:
        frame = self.session.selected_frame()
        view = self.query_one(SourceView)
        pane = self.query_one("#source-pane")
        warning = self.query_one("#source-warning", Static)
        if frame is None or frame.file is None:
            name = frame.function if frame else "this event"
            view.show(None, None, {}, f"no source line is known for {name}()")
            pane.border_title, warning.display = localise("Source", self.lang), False
            return
        source = read_user_source(frame.file) if frame.callee else read_source(frame.file)
        view.show(source, frame.line, self.session.breakpoints.lines_in(frame.file), source.problem or "")
        if frame.callee and self.session.store.function_frame(self.session.position) is not None:
            inferred = (
                " · 你的代码：实时暂停在这一行" if self.lang == "zh" else " · your code, paused at this line (live)"
            )
        elif frame.callee:
            inferred = (
                " · 你的代码：这个事件调用的函数"
                if self.lang == "zh"
                else " · your code: the function this event calls"
            )
        else:
            inferred = (
                ""
                if frame.exact
                else (" · 调用方行号由源码推断" if self.lang == "zh" else " · caller line inferred from the source")
            )
        # A Text, not a str: Textual reads a str title as markup, and these names come from the trace.
        # The method first: a narrow pane cuts the end of the title, and the path matters least.
        pane.border_title = literal(f"{frame.function}() · {frame.file}:{frame.line}{inferred}")
        problem = hash_warning(source, self.session.store.header) or (
            moved_line_warning(source, frame.function, frame.line) if frame.exact and not frame.callee else None
        )
        warning.update(literal(f"⚠ {problem}" if problem else ""))
        warning.display = problem is not None

    def _show_stop_pane(self) -> None:
        """At a stop whose text points at a pane, that pane is shown and the narration takes the source's place."""
        current = self.session.current_stop()
        stop = current[1] if current and current[1].seq == self.session.position else None
        pane = getattr(stop, "pane", "") if stop is not None else ""
        self.query_one(SourceView).display = not pane
        stop_text = self.query_one("#stop-text", TextPane)
        stop_text.display = bool(pane)
        if not pane:
            self._stop_pane_at = None
            return
        stop_text.show(narration_text(self.session))
        below = (
            f"讲解 · 下方是{localise(pane + ' pane', 'zh')}"
            if self.lang == "zh"
            else f"Narration · the {pane} pane is below"
        )
        self.query_one("#source-pane").border_title = literal(below)
        if getattr(self, "_stop_pane_at", None) != self.session.position:  # once per arrival: 5 still works
            self._stop_pane_at = self.session.position
            self.query_one(TabbedContent).active = pane

    def _show_tab(self, name: str) -> None:
        session = self.session
        if name == "variables":
            self.query_one("#variables-text", TextPane).show(variables_text(session, self.lang))
        elif name == "prompt":
            self.query_one(PromptPane).show(*prompt_text(session, self.lang))
        elif name == "detail":
            event = session.event()
            cost = None if isinstance(event, UnreadableEvent) else session.costs.call_at(session.position)
            self.query_one("#detail-text", TextPane).show(detail_text(event, cost, self.lang))
        elif name == "breakpoints":
            self.query_one(BreakpointsPane).show()
        elif name == "narration":
            self.query_one("#narration-text", TextPane).show(narration_text(session))
