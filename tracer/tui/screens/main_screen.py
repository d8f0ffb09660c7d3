"""The debugger's one screen: lays out the panes, binds the flows' keys, and redraws on their messages."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TabbedContent

from ...debug.event_store import ReplayStore
from ...debug.session import DebugSession
from ...i18n import Message, say, verbatim
from ...report.text.literal import literal
from ..chrome import binding_words
from ..flows.asking import AskingFlow
from ..flows.diffing import DiffFlow
from ..flows.filtering import FilterFlow
from ..flows.flow import Flow, KeyAction
from ..flows.forking import ForkFlow, timeline_title
from ..flows.playground import PlaygroundFlow
from ..flows.reenacting import ReenactFlow
from ..flows.stepping import SteppingFlow
from ..flows.tutorials import TutorialFlow
from ..flows.waterfall import WaterfallFlow
from ..messages import BeforeFirstStop, Busy, ForkWith, PastLastStop, Redraw, Say, Waiting
from ..panes.breakpoints_pane import BreakpointsPane
from ..panes.call_stack import CallStackPane
from ..panes.inspector_tabs import InspectorTabs
from ..panes.keys_footer import KeysFooter
from ..panes.predict_pane import PredictPane
from ..panes.source_pane import SourcePane
from ..panes.source_view import SourceView
from ..panes.status_line import StatusLine
from ..panes.text_pane import TextPane
from ..panes.timeline import EventTimeline
from ..panes.waterfall_pane import WaterfallPane
from ..views.function_hint import function_keys
from .help_screen import HelpScreen

PANES = [
    ("1", "variables", "variables pane"),
    ("2", "prompt", "prompt pane"),
    ("3", "detail", "detail pane"),
    ("4", "breakpoints", "breakpoints pane"),
    ("5", "narration", "narration pane (tutorials)"),
]
# Keys that exist only in a tutorial (a session with stops); elsewhere they are hidden from the footer.
TUTORIAL_ACTIONS = (
    ("flow", ("next-stop",)),
    ("flow", ("previous-stop",)),
    ("flow", ("predict",)),
    ("tab", ("narration",)),
)


def _bindings(owner: Sequence[BindingType]) -> list[Binding]:
    return [binding for binding in owner if isinstance(binding, Binding)]


class DebuggerScreen(Screen[None]):
    """Each flow declares its own keys (KEYS) and does the work behind them (actions); the screen binds
    them, runs the flow's bound method for a key, and redraws the panes when a flow says so."""

    # Scrolling comes right after the motions: an 80-column footer is cut after about five keys.
    SCROLLING = [
        Binding("j", "scroll_pane(1)", "scroll the pane", key_display="j/k", id="scroll-pane-down"),
        Binding("k", "scroll_pane(-1)", "scroll the pane up", show=False, id="scroll-pane-up"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        *SteppingFlow.KEYS,
        *SCROLLING,
        *AskingFlow.KEYS,
        *ForkFlow.KEYS,
        *DiffFlow.KEYS,
        *TutorialFlow.KEYS,
        *FilterFlow.KEYS,
        *PlaygroundFlow.KEYS,
        *WaterfallFlow.KEYS,
        *(Binding(key, f"tab({name!r})", text, show=False, id=f"show-{name}") for key, name, text in PANES),
        Binding("z", "wide_source", "wide source (hide the timeline)", show=False, id="wide-source"),
        Binding("question_mark", "help", "help", id="help"),
    ]

    # What the status line says (a flow's Say sets it): the screen's to say, in its language.
    said: reactive[Message] = reactive(Message("debugger.opening"), init=False, always_update=True)

    def __init__(self, session: DebugSession, lang: str = "en", said: Message | None = None) -> None:
        super().__init__()
        self.session = session
        self.busy: Message | None = None
        self.lang = lang  # the language of the debugger's own words (--lang, else the tutorial's notes')
        if said is not None:
            self.set_reactive(DebuggerScreen.said, said)
        if self.lang != "en":  # the footer and help read the descriptions: they speak the notes' language
            self._relabel(lambda binding: binding_words(binding, self.lang))
        self._plain_labels = {b.id: b.description for bs in self._bindings.key_to_bindings.values() for b in bs if b.id}
        self._motion_labels: dict[str, Message] = {}
        self._resumed = False
        self.timeline = EventTimeline(session, lang, id="timeline")
        self.stack = CallStackPane(id="stack")
        self.source = SourcePane(self.lang, id="source-pane")
        self.tabs = InspectorTabs(session, self.lang, id="tabs")
        self.status = StatusLine(lang, id="status")
        self.verdict = PredictPane(self.lang, id="predict")
        self.waterfall = WaterfallPane(session, self.lang, id="waterfall")
        self.stepping = SteppingFlow(session, id="flow-stepping")
        self.asking = AskingFlow(session, id="flow-asking")
        self.forking = ForkFlow(session, id="flow-forking")
        self.tutorials = TutorialFlow(session, id="flow-tutorials")
        self.reenactment = ReenactFlow(session, id="flow-reenacting")
        self.flows: tuple[Flow, ...] = (
            self.stepping,
            self.asking,
            self.forking,
            DiffFlow(session, id="flow-diffing"),
            self.tutorials,
            FilterFlow(session, id="flow-filtering"),
            PlaygroundFlow(session, id="flow-playground"),
            self.reenactment,
            WaterfallFlow(session, id="flow-waterfall"),
        )
        self.key_actions: dict[str, KeyAction] = {
            key: action for flow in self.flows for key, action in flow.actions().items()
        }

    @property
    def reenacting(self) -> bool:
        """The real locals are still coming (tests wait for them): a re-execution is asked for, at work,
        or its last redraw is not drawn yet, and the screen is still in the app to draw it."""
        return self.reenactment.running and self.is_attached

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                yield self.timeline
                yield self.stack
            with Vertical(id="right"):
                yield self.source
                yield self.tabs
        yield self.waterfall
        yield self.verdict
        yield self.status
        yield KeysFooter()
        yield from self.flows

    def on_mount(self) -> None:
        store = self.session.store
        self.timeline.border_title = timeline_title(store.header, self.lang)
        self.stack.border_title = say("panes.call_stack", self.lang)
        self.timeline.focus()
        if store.warning:  # stays visible after the status line moves on
            self.timeline.border_subtitle = literal(say("panes.truncated", self.lang))
        warnings = [w for w in (store.warning, self.session.breakpoints.warning) if w]
        if warnings:  # the reader's and the breakpoint file's own words, about the files
            self.set_reactive(DebuggerScreen.said, Message("debugger.warning", {"text": " · ".join(warnings)}))
        elif isinstance(store, ReplayStore) and store.import_note:  # another tool's trace: what was recognised
            self.set_reactive(DebuggerScreen.said, verbatim(store.import_note))
        if store.needs_background_index:
            self.stepping.start_indexing()
        self.refresh_panes()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # The first resume comes as the screen mounts, its widgets styled a moment before: restyling
        # them all again slowed the first frame. Later ones (back from help) restyle as usual.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False  # read by Screen's own handler, which runs after this one

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (action, parameters) in TUTORIAL_ACTIONS:
            return bool(self.session.stops)
        return True

    # -- keys: each flow's handed to the flow's own method ------------------------------------------
    def action_flow(self, key: str) -> None:
        """The flow key whose binding id is `key` (see Flow.actions; a test checks every key has one)."""
        self.key_actions[key]()

    def action_tab(self, name: str) -> None:
        if name != "narration" or self.session.stops:
            self.tabs.active = name

    def action_scroll_pane(self, direction: int) -> None:
        """Scroll the pane marked as j/k's (see scroll_target), by half its height."""
        target = self.scroll_target()
        if target is not None:
            target.scroll_relative(y=direction * max(target.scrollable_content_region.height // 2, 1), animate=False)

    def scroll_target(self) -> Widget | None:
        """The pane j/k scroll: the text pane with the focus; else a stop's narration above the tabs while
        it has lines below still unread (it is read first); else the tab shown, if it can scroll; else that
        narration, if it can. Its hint says j/k and it is marked (mark_scroll_target); the others say tab."""
        focused = self.focused
        if isinstance(focused, TextPane):
            return focused
        narration = self.source.stop_text
        narrating = narration.display and self.source.display
        if narrating and narration.hidden_lines[1]:
            return narration
        pane = self.tabs.active_pane
        scrollers = [w for w in pane.query("*") if w.allow_vertical_scroll] if pane is not None else []
        if scrollers:
            return scrollers[0]
        return narration if narrating and narration.allow_vertical_scroll else None

    def mark_scroll_target(self) -> None:
        """Tell every text pane whether j/k scroll it (its hint and its mark follow)."""
        target = self.scroll_target()
        for pane in self.query(TextPane):
            pane.set_jk_target(pane is target)

    def on_text_pane_moved(self, message: TextPane.Moved) -> None:
        self.mark_scroll_target()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.call_after_refresh(self.mark_scroll_target)  # another tab: its pane may be j/k's now

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.mark_scroll_target()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.call_after_refresh(self.mark_scroll_target)  # the focus has moved on by then

    def action_wide_source(self) -> None:
        left = self.query_one("#left")
        left.display = not left.display
        self.said = Message("debugger.timeline_back" if left.display else "debugger.wide_source")
        self.refresh_panes()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.help_sections(), self.lang))

    def help_sections(self) -> list[tuple[str, list[Binding]]]:
        moving = SteppingFlow.KEYS + AskingFlow.KEYS[:4] + FilterFlow.KEYS
        return [
            ("help.moving", moving),
            ("help.looking", [b for b in _bindings(self.BINDINGS) if b not in moving] + _bindings(self.app.BINDINGS)),
            (
                "help.in_timeline",
                _bindings(EventTimeline.BINDINGS[:2])
                + [Binding("click", "", say("keys.click"), id="click"), *_bindings(SourceView.BINDINGS[-1:])],
            ),
            ("help.in_breakpoints", _bindings(BreakpointsPane.BINDINGS[2:])),
        ]

    def _label_motions(self) -> None:
        """The footer says what s / n / r do at a tool_start of your tool and inside its function (live)."""
        labels = function_keys(self.session)
        if labels == self._motion_labels:
            return
        self._motion_labels = labels
        self._relabel(self._motion_label)
        self.refresh_bindings()

    def _motion_label(self, binding: Binding) -> str:
        name = binding.id or ""
        if name in self._motion_labels:
            return self._motion_labels[name].text(self.lang)
        plain = dataclasses.replace(binding, description=self._plain_labels.get(name, binding.description))
        return binding_words(plain, self.lang)

    def _relabel(self, label: Callable[[Binding], str]) -> None:
        """Give this screen's bindings new descriptions (the footer and the help show them)."""
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [dataclasses.replace(b, description=label(b)) for b in bindings]

    # -- messages: from the flows and panes ---------------------------------------------------------
    def on_say(self, message: Say) -> None:
        self.said = message.said

    def watch_said(self) -> None:
        self.status.show(self.session, self.said, self.busy)

    def on_waiting(self, message: Waiting) -> None:
        self.status.show(self.session, self.said, message.said)

    def on_busy(self, message: Busy) -> None:
        self.busy = message.reason
        for flow in self.flows:
            flow.blocked_by = self.busy
        self.status.show(self.session, self.said, self.busy)
        if self.busy is None:  # keys typed while busy run now, in order
            self.call_after_refresh(self.stepping.run_queued)

    def on_redraw(self, message: Redraw) -> None:
        if message.grew:
            self.timeline.grow()
        if message.breakpoints:
            self.timeline.breakpoints_changed()
            self.tabs.breakpoints.show()
        if message.tab is not None:
            self.action_tab(message.tab)
        self.refresh_panes()

    def on_past_last_stop(self, message: PastLastStop) -> None:
        self.tutorials.after_last_stop()

    def on_before_first_stop(self, message: BeforeFirstStop) -> None:
        self.tutorials.before_first_stop()

    def on_fork_with(self, message: ForkWith) -> None:
        self.forking.fork_with(message.at, "reply", message.text)

    def on_source_view_toggle_line(self, message: SourceView.ToggleLine) -> None:
        self.asking.toggle_breakpoint(message.file, message.line)

    def on_event_timeline_picked(self, message: EventTimeline.Picked) -> None:
        self.session.goto(message.position)
        self.said = Message("debugger.picked", {"seq": self.session.position})
        self.refresh_panes()

    def on_call_stack_pane_frame_picked(self, message: CallStackPane.FramePicked) -> None:
        self.session.frame_up = message.frame_up
        self.refresh_panes()

    # -- drawing ------------------------------------------------------------------------------------
    def refresh_panes(self) -> None:
        session = self.session
        self.tutorials.hold_before_question()  # predict on: an unanswered question's event is not drawn first
        self.timeline.hide_from(self.tutorials.horizon())
        self.verdict.show(self.tutorials.verdicts())
        self.timeline.follow()
        self.stack.show(session.frames(), session.frame_up, self.lang)
        arrived = self.source.show(session)
        if arrived is not None:  # a stop that points at a pane shows it, once per arrival
            self.tabs.active = arrived
        self.tabs.show()
        if self.waterfall.display:
            self.waterfall.load()
        self.status.show(session, self.said, self.busy)
        self._label_motions()
        self.reenactment.follow()
        self.call_after_refresh(self.mark_scroll_target)  # the tab shown may have changed

    def stop_reenacting(self) -> None:
        """This screen is covered for good by another session's: its re-execution stops."""
        self.reenactment.stop()
