"""The debugger's one screen: timeline, call stack, source and the tabbed panes, driven by pdb-style keys."""

from __future__ import annotations

from collections import deque

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from ...debug.session import DebugSession
from ...debug.source_map import hash_warning, read_source
from ...debug.stepping import Motion, MotionSearch
from ...report.literal import literal
from ...trace.reader import TraceFormatError
from ..panes.breakpoints_pane import BreakpointsPane
from ..panes.call_stack import CallStackPane
from ..panes.prompt_pane import PromptPane
from ..panes.source_view import SourceView
from ..panes.status_line import StatusLine
from ..panes.text_pane import TextPane
from ..panes.timeline import EventTimeline
from ..views.detail_view import detail_text
from ..views.narration_view import narration_text
from ..views.prompt_view import prompt_text
from ..views.variables_view import variables_text
from .dialog_actions import DialogActions
from .diff_actions import DiffActions
from .fork_actions import ForkActions, timeline_title
from .tutorial_actions import TutorialActions

QUEUE_LIMIT = 50


class DebuggerScreen(DialogActions, ForkActions, DiffActions, TutorialActions, Screen):
    BINDINGS = [
        Binding("s", "move('step', 1)", "step"),
        Binding("n", "move('next', 1)", "next"),
        Binding("r", "move('out', 1)", "step out"),
        Binding("c", "move('continue', 1)", "continue"),
        Binding("S", "move('step', -1)", "step back", show=False),
        Binding("N", "move('next', -1)", "next, backwards", show=False),
        Binding("R", "move('out', -1)", "step out, backwards (to the call)", show=False),
        Binding("C", "move('continue', -1)", "reverse continue", show=False),
        Binding("g", "edge(-1)", "first event", show=False),
        Binding("G", "edge(1)", "last event", show=False),
        Binding("colon", "goto_number", "go to event number", show=False),
        Binding("slash", "search", "search"),
        Binding("right_square_bracket", "search_again(1)", "next match", show=False),
        Binding("left_square_bracket", "search_again(-1)", "previous match", show=False),
        Binding("b", "toggle_breakpoint", "breakpoint"),
        Binding("B", "add_breakpoint", "add breakpoint (kind, tool, condition …)", show=False),
        Binding("u", "frame(1)", "up the stack (show the caller)", show=False),
        Binding("d", "frame(-1)", "down the stack", show=False),
        Binding("space", "tutorial_stop(1)", "next stop"),
        Binding("backspace", "tutorial_stop(-1)", "previous stop", show=False),
        Binding("1", "tab('variables')", "variables pane", show=False),
        Binding("2", "tab('prompt')", "prompt pane", show=False),
        Binding("3", "tab('detail')", "detail pane", show=False),
        Binding("4", "tab('breakpoints')", "breakpoints pane", show=False),
        Binding("5", "tab('narration')", "narration pane (tutorials)", show=False),
        Binding("escape", "pause", "pause a running live continue", show=False),
        Binding("f", "fork", "fork: change this reply or observation and re-run", show=False),
        Binding("D", "diff", "diff with the parent run (or another trace)", show=False),
        Binding("T", "tutorials", "tutorials", show=False),
        Binding("question_mark", "help", "help"),
    ]

    def __init__(self, session: DebugSession) -> None:
        super().__init__()
        self.session = session
        self.busy = ""
        self._queued: deque[tuple[str, int]] = deque(maxlen=QUEUE_LIMIT)  # keys pressed while busy
        self._pause_requested = False

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
                with TabbedContent(id="tabs", initial="narration" if session.stops else "variables"):
                    if session.stops:
                        with TabPane("Narration", id="narration"):
                            yield TextPane(id="narration-text")
                    with TabPane("Variables", id="variables"):
                        yield TextPane(id="variables-text")
                    with TabPane("Prompt", id="prompt"):
                        yield PromptPane(id="prompt-pane")
                    with TabPane("Detail", id="detail"):
                        yield TextPane(id="detail-text")
                    with TabPane("Breakpoints", id="breakpoints"):
                        yield BreakpointsPane(session.breakpoints, id="breakpoints-list")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#timeline").border_title = timeline_title(self.session.store.header)
        self.query_one("#stack").border_title = "Call stack"
        self.query_one("#timeline").focus()
        if self.session.store.warning:  # stays visible after the status line moves on
            self.query_one("#timeline").border_subtitle = literal("⚠ truncated: the last line was cut off")
        warnings = [w for w in (self.session.store.warning, self.session.breakpoints.warning) if w]
        if warnings:
            self.session.message = "warning: " + " · ".join(warnings)
        if self.session.store.needs_background_index:
            self.busy = "indexing the trace…"
            self._build_index()  # waits for the scan the store started in a child process
        self.refresh_panes()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Tutorial keys exist only when there are stops; elsewhere they are hidden from the footer.
        if action == "tutorial_stop" or (action == "tab" and parameters == ("narration",)):
            return bool(self.session.stops)
        return True

    # -- drawing ------------------------------------------------------------------------------------
    def refresh_panes(self) -> None:
        session = self.session
        self.query_one(EventTimeline).follow()
        self.query_one(CallStackPane).show(session.frames(), session.frame_up)
        self._show_source()
        self._show_tab(self.query_one(TabbedContent).active)
        self.query_one(StatusLine).show(session, self.busy)

    def _show_source(self) -> None:
        frame = self.session.selected_frame()
        view = self.query_one(SourceView)
        pane = self.query_one("#source-pane")
        warning = self.query_one("#source-warning", Static)
        if frame is None or frame.file is None:
            name = frame.function if frame else "this event"
            view.show(None, None, {}, f"no source line is known for {name}()")
            pane.border_title, warning.display = "Source", False
            return
        source = read_source(frame.file)
        view.show(source, frame.line, self.session.breakpoints.lines_in(frame.file), source.problem or "")
        inferred = "" if frame.exact else " · caller line inferred from the source"
        # A Text, not a str: Textual reads a str title as markup, and these names come from the trace.
        pane.border_title = literal(f"Source · {frame.file}:{frame.line} in {frame.function}(){inferred}")
        problem = hash_warning(source, self.session.store.header)
        warning.update(literal(f"⚠ {problem}" if problem else ""))
        warning.display = problem is not None

    def _show_tab(self, name: str) -> None:
        session = self.session
        if name == "variables":
            self.query_one("#variables-text", TextPane).show(variables_text(session))
        elif name == "prompt":
            self.query_one(PromptPane).show(*prompt_text(session))
        elif name == "detail":
            self.query_one("#detail-text", TextPane).show(detail_text(session.event()))
        elif name == "breakpoints":
            self.query_one(BreakpointsPane).show()
        elif name == "narration":
            self.query_one("#narration-text", TextPane).show(narration_text(session))

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._show_tab(event.pane.id or "")

    def breakpoints_changed(self) -> None:
        self.query_one(EventTimeline).breakpoints_changed()
        self.query_one(BreakpointsPane).show()
        self.refresh_panes()

    def on_breakpoints_pane_changed(self, _message: BreakpointsPane.Changed) -> None:
        self.breakpoints_changed()

    def on_event_timeline_picked(self, message: EventTimeline.Picked) -> None:
        self.session.goto(message.position)
        self.session.message = f"event {self.session.position}"
        self.refresh_panes()

    def on_call_stack_pane_frame_picked(self, message: CallStackPane.FramePicked) -> None:
        self.session.frame_up = message.frame_up
        self.refresh_panes()

    def help_sections(self):
        return [("Moving", [b for b in self.BINDINGS if b.action.startswith(("move", "edge", "goto"))]),
                ("Looking around", [b for b in self.BINDINGS if not b.action.startswith(("move", "edge", "goto"))]
                 + list(self.app.BINDINGS)),
                ("In the timeline / source pane (focus with tab)", EventTimeline.BINDINGS[:2]
                 + [Binding("click", "", "go to that event / frame")]),
                ("In the breakpoints pane (4, then tab to focus it)", BreakpointsPane.BINDINGS[2:])]

    # -- moving ------------------------------------------------------------------------------------
    def action_move(self, motion: str, direction: int) -> None:
        chosen = Motion(motion)
        if self.busy or not self.session.index_ready:
            # Indexing, or the live executor is being pulled: keep the key, like a terminal would.
            self._queued.append((motion, direction))
            self.query_one(StatusLine).show(self.session, f"{self.busy} · {len(self._queued)} move(s) waiting")
            return
        search = self.session.motion(chosen, direction)
        stop = search.advance(complete=self.session.store.complete or direction < 0)
        if stop is None:
            self.busy = "running the executor live… (esc pauses)"
            self._pause_requested = False
            self.refresh_panes()
            self._drive_live(search, chosen, direction)
            return
        self.session.land(stop, chosen, direction)
        self.refresh_panes()

    def action_edge(self, direction: int) -> None:
        self.session.goto(0 if direction < 0 else len(self.session) - 1)
        self.session.message = "first event" if direction < 0 else "last event" + (
            "" if self.session.store.complete else " so far (c runs the live executor on)")
        self.refresh_panes()

    def action_frame(self, steps: int) -> None:
        if not self.session.move_frame(steps):
            self.session.message = "already at the outermost frame" if steps > 0 else "already at the event's frame"
        else:
            frame = self.session.selected_frame()
            self.session.message = f"frame {frame.function}()"
        self.refresh_panes()

    def action_tab(self, name: str) -> None:
        tabs = self.query_one(TabbedContent)
        if name != "narration" or self.session.stops:
            tabs.active = name

    def action_tutorial_stop(self, direction: int) -> None:
        if not self.session.stops:
            self.session.message = "no tutorial stops in this session (loopscope tutorial NAME has them)"
        elif (position := self.session.stop_position(direction)) is None:
            self.session.message = "no further stop that way"
        else:
            self.session.goto(position)
            self.session.message = f"tutorial stop at event {position}"
            self.query_one(TabbedContent).active = "narration"
        self.refresh_panes()

    def action_toggle_breakpoint(self) -> None:
        source = self.query_one(SourceView)
        if source.has_focus and source.source is not None and source.source.lines:
            file, line = source.source.path, source.cursor_line
        else:
            frame = self.session.selected_frame()
            if frame is None or not frame.file or not frame.line:
                self.session.message = "no source line here to put a breakpoint on"
                self.refresh_panes()
                return
            file, line = frame.file, frame.line
        added = self.session.breakpoints.toggle_line(file, line)
        self.session.message = (f"breakpoint #{added.number} set on {file}:{line}" if added
                                else f"breakpoint on {file}:{line} removed")
        self.breakpoints_changed()

    def action_pause(self) -> None:
        if self.busy.startswith("running"):
            self._pause_requested = True

    # -- workers -------------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="live")
    def _drive_live(self, search: MotionSearch, motion: Motion, direction: int) -> None:
        """Pull one event at a time in this thread; the UI thread appends it and decides whether to stop."""
        run = self.session.store.run
        while True:
            if self._pause_requested:
                self.app.call_from_thread(self._live_paused)
                return
            pulled = run.pull()
            if self.app.call_from_thread(self._live_pulled, pulled, search, motion, direction):
                return

    def _live_pulled(self, pulled, search: MotionSearch, motion: Motion, direction: int) -> bool:
        store = self.session.store
        if pulled is not None:
            store.append(*pulled)
            self.query_one(EventTimeline).grow()
        stop = search.advance(complete=store.complete)
        if stop is None:
            self.query_one(StatusLine).show(self.session, f"{self.busy} · {len(store)} events")
            return False
        self.busy = ""
        self.session.land(stop, motion, direction)
        if store.complete and stop.reason == "end":
            self.session.message += f" · {store.run.outcome}"
        self.refresh_panes()
        self.call_after_refresh(self._run_queued)
        return True

    def _run_queued(self) -> None:
        if self._queued and not self.busy and self.session.index_ready:
            self.action_move(*self._queued.popleft())

    def _live_paused(self) -> None:
        self.busy = ""
        self._queued.clear()  # esc means stop, including the moves typed ahead
        self.session.goto(len(self.session) - 1)
        self.session.message = f"paused at event {self.session.position}"
        self.refresh_panes()

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        store = self.session.store
        try:
            index = store.build_index()
        except TraceFormatError as error:
            self.app.call_from_thread(self.app.fail, str(error))
            return
        self.app.call_from_thread(self._index_ready, index)

    def _index_ready(self, index) -> None:
        self.session.store.index = index
        self.busy = ""
        self.query_one(EventTimeline).grow()
        self.refresh_panes()
        self._run_queued()
