"""Stepping: pdb's keys over events, forwards and backwards, pulling the live executor when needed."""

from __future__ import annotations

from collections import deque
from functools import partial

from textual import work
from textual.worker import get_current_worker

from ...debug.event_store import LiveStore, ReplayStore
from ...debug.session import motion_name
from ...debug.step_into import LineStop
from ...debug.stepping import Motion, MotionSearch, Stop, move_within
from ...i18n import Message
from ...trace.reader import TraceFormatError
from ..messages import BeforeFirstStop, PastLastStop, Waiting
from .flow import Flow, KeyAction, flow_key, stop_tab
from .into_function import arm_line_breakpoints, at_line, into_function, left_function, why_not_into

QUEUE_LIMIT = 50
# What esc pauses: a live run being pulled, or a search for a breakpoint's condition.
PAUSABLE = (
    "debugger.running_function",
    "debugger.running_live",
    "debugger.running_live_count",
    "debugger.checking_conditions",
)
# Past this many events a motion whose breakpoints have conditions searches in a worker thread.
BACKGROUND_MOTION_EVENTS = 20_000


# (key, motion, direction, description, shown in the footer): the binding id is "MOTION-forward" / "MOTION-back".
MOTION_KEYS = [
    ("s", Motion.STEP, 1, "step", True),
    ("n", Motion.NEXT, 1, "next", True),
    ("r", Motion.OUT, 1, "step out", True),
    ("c", Motion.CONTINUE, 1, "continue", True),
    ("S", Motion.STEP, -1, "step back", False),
    ("N", Motion.NEXT, -1, "next, backwards", False),
    ("R", Motion.OUT, -1, "step out, backwards (to the call)", False),
    ("C", Motion.CONTINUE, -1, "reverse continue", False),
]


def _motion_id(motion: Motion, direction: int) -> str:
    return f"{motion.value}-{'forward' if direction > 0 else 'back'}"


class ToEvent:
    """A live run pulled on until event `target` exists: space towards a tutorial stop the run has not
    reached yet (the stops were found in its recording, whose events the live run repeats)."""

    def __init__(self, store: LiveStore, target: int) -> None:
        self.store, self.target = store, target

    def advance(self, complete: bool) -> Stop | None:
        if len(self.store) > self.target:
            return Stop(self.target, "stop")
        if not complete:
            return None
        last = len(self.store) - 1  # the run ended before it: the recording and this run differ
        return Stop(last, "end")


class SteppingFlow(Flow):
    """Moves the session: step / next / out / continue both ways, first and last event, the
    frame shown, tutorial stops. While the trace is being indexed or the live executor is
    being pulled, keys are queued like a terminal would, and run in order afterwards."""

    KEYS = [
        *(flow_key(key, _motion_id(motion, way), text, show) for key, motion, way, text, show in MOTION_KEYS),
        flow_key("g", "first-event", "first event", show=False),
        flow_key("G", "last-event", "last event", show=False),
        flow_key("u", "frame-up", "up the stack (show the caller)", show=False),
        flow_key("d", "frame-down", "down the stack", show=False),
        flow_key("space", "next-stop", "next stop"),
        flow_key("backspace", "previous-stop", "previous stop", show=False),
        flow_key("escape", "pause", "pause a running live continue or a long search", show=False),
    ]

    def __init__(self, session, **kwargs) -> None:
        super().__init__(session, **kwargs)
        self._queued: deque[tuple[Motion, int]] = deque(maxlen=QUEUE_LIMIT)
        self._pause_requested = False
        self._in_function = False  # this motion started inside a traced tool function (live)
        self._note: Message | None = None

    def actions(self) -> dict[str, KeyAction]:
        moves = {
            _motion_id(motion, way): partial(self.move, motion, way) for _key, motion, way, _text, _show in MOTION_KEYS
        }
        return moves | {
            "first-event": partial(self.edge, -1),
            "last-event": partial(self.edge, 1),
            "frame-up": partial(self.frame, 1),
            "frame-down": partial(self.frame, -1),
            "next-stop": partial(self.tutorial_stop, 1),
            "previous-stop": partial(self.tutorial_stop, -1),
            "pause": self.pause,
        }

    # -- keys ------------------------------------------------------------------------------------
    def move(self, motion: Motion, direction: int) -> None:
        if self.blocked_by or not self.session.index_ready:
            self._queued.append((motion, direction))  # indexing or pulling: keep the key
            reason = self.blocked_by or Message("debugger.indexing")
            self.post_message(
                Waiting(Message("debugger.moves_waiting", {"reason": reason, "count": len(self._queued)}))
            )
            return
        self._in_function = False
        if direction > 0 and (searched := into_function(self.session, motion)) is not None:
            self._in_function = True  # s at a tool_start, or any forward key inside its function
            self._pause_requested = False
            self.busy(Message("debugger.running_function"))
            self._drive_live(self.session.motion(searched, 1), motion, 1)
            return
        self._note = why_not_into(self.session, motion) if direction > 0 else None
        if self.session.view.step_within and self.session.shown() is not None:
            self._move_within_filter(motion, direction)
            return
        search = self.session.motion(motion, direction)
        if self._may_read_every_event():
            # A breakpoint condition the index cannot decide is checked event by event: seconds on a
            # million events. A worker searches; the window keeps painting and keys wait their turn.
            self._pause_requested = False
            self.busy(Message("debugger.checking_conditions", {"motion": motion_name(motion, direction)}))
            self._advance_in_background(search, motion, direction)
            return
        self._advanced(search, search.advance(complete=self.session.store.complete or direction < 0), motion, direction)

    def _may_read_every_event(self) -> bool:
        return len(self.session) > BACKGROUND_MOTION_EVENTS and any(
            bp.enabled and bp.condition is not None for bp in self.session.breakpoints
        )

    @work(thread=True, exclusive=True, group="motion")
    def _advance_in_background(self, search: MotionSearch, motion: Motion, direction: int) -> None:
        worker = get_current_worker()  # cancelled when the window closes: quit does not wait for the search

        def cancelled() -> bool:
            return self._pause_requested or worker.is_cancelled

        stop = search.advance(complete=self.session.store.complete or direction < 0, cancelled=cancelled)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._advanced_in_background, search, stop, motion, direction)

    def _advanced_in_background(self, search: MotionSearch, stop, motion: Motion, direction: int) -> None:
        self.busy(None)  # the screen runs any key that waited, once this has landed
        self._advanced(search, stop, motion, direction)

    def _advanced(self, search: MotionSearch, stop, chosen: Motion, direction: int) -> None:
        if stop is None:
            self._pause_requested = False
            self.busy(Message("debugger.running_live"))
            arm_line_breakpoints(self.session)
            self._drive_live(search, chosen, direction)
            return
        self.say(self._with_note(self.session.land(stop, chosen, direction)))
        self.redraw()

    def _with_note(self, said: Message) -> Message:
        """`said`, and why `s` did not step into the tool's function when it did not."""
        note, self._note = self._note, None
        return said.then(note)

    def _move_within_filter(self, motion: Motion, direction: int) -> None:
        # A live run is not pulled here: the filter steps over the events recorded so far.
        session, index = self.session, self.session.store.index
        assert index is not None  # a filter is set only once the index is there
        stop = move_within(
            session.shown(),
            index,
            session.breakpoints,
            session.store.resolve_at,
            session.position,
            motion,
            direction,
        )
        said = session.land(stop, motion, direction)
        self.say(said if stop.moved else said.then(Message("debugger.no_shown_further")))
        self.redraw()

    def edge(self, direction: int) -> None:
        self.session.goto(0 if direction < 0 else len(self.session) - 1)
        edge = "first_event" if direction < 0 else "last_event" if self.session.store.complete else "last_event_so_far"
        self.say(Message(f"debugger.{edge}"))
        self.redraw()

    def frame(self, steps: int) -> None:
        moved = self.session.move_frame(steps)
        frame = self.session.selected_frame()
        if not moved or frame is None:
            self.say(Message("debugger.outermost_frame" if steps > 0 else "debugger.events_frame"))
        else:
            self.say(Message("debugger.frame", {"function": frame.function}))
        self.redraw()

    def tutorial_stop(self, direction: int) -> None:
        if not self.session.stops:
            self.say(Message("debugger.no_stops"))
        elif (position := self.session.stop_position(direction)) is None and direction > 0:
            self.post_message(PastLastStop())
            return
        elif position is None:  # before the first stop: back to the previous part, if there is one
            self.post_message(BeforeFirstStop())
            return
        elif position >= len(self.session):  # a live tutorial: the run has not got there yet
            self._run_live_to(position)
            return
        else:
            self.session.goto(position)
            self.say(Message("debugger.tutorial_stop", {"seq": position}))
            # The stop's own tab, not just "narration": a redraw that ran between the move and this message
            # (a key pressed as the app starts) has spent the arrival that would have opened its pane.
            self.redraw(tab=stop_tab(self.session))
            return
        self.redraw()

    def _run_live_to(self, position: int) -> None:
        store = self.session.store
        if not isinstance(store, LiveStore) or store.complete:
            self.say(Message("debugger.no_further_stop"))
            return
        if self.blocked_by:
            self.say(Message("debugger.wait", {"reason": self.blocked_by}))
            return
        self._in_function = False
        into_function(self.session, Motion.CONTINUE)  # paused inside your function: it runs on, as with c
        self._pause_requested = False
        self.busy(Message("debugger.running_live"))
        self._drive_live(ToEvent(store, position), Motion.CONTINUE, 1)

    def pause(self) -> None:
        if self.blocked_by is not None and self.blocked_by.key in PAUSABLE:
            self._pause_requested = True

    def run_queued(self) -> None:
        """Run the next key typed while busy (the screen calls this when nothing blocks any more)."""
        if self._queued and not self.blocked_by and self.session.index_ready:
            self.move(*self._queued.popleft())

    # -- workers ---------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="live")
    def _drive_live(self, search: MotionSearch | ToEvent, motion: Motion, direction: int) -> None:
        """Pull one event at a time in this thread; the UI thread appends it and decides whether to stop."""
        run = self._live_store().run
        while True:
            if self._pause_requested:
                self.app.call_from_thread(self._live_paused)
                return
            pulled = run.pull()
            if self.app.call_from_thread(self._live_pulled, pulled, search, motion, direction):
                return

    def _live_store(self) -> LiveStore:
        store = self.session.store
        assert isinstance(store, LiveStore)  # only a live run is pulled: a recording is complete
        return store

    def _live_pulled(self, pulled, search: MotionSearch | ToEvent, motion: Motion, direction: int) -> bool:
        store = self._live_store()
        if isinstance(pulled, LineStop):  # inside a traced tool function: a line to stop at, or to run on
            said = at_line(self.session, pulled, motion)
            if said is None:
                return False
            self.say(said)
            self.busy(None)
            self.redraw(breakpoints=pulled.reason == "breakpoint")
            return True
        if pulled is not None:
            store.append(*pulled)
            arm_line_breakpoints(self.session)  # a tool_start whose function holds a line breakpoint
            self.redraw(grew=True)
        stop = search.advance(complete=store.complete)
        if stop is None:
            self.busy(Message("debugger.running_live_count", {"count": len(store)}))
            return False
        if stop.reason == "stop":  # space reached the tutorial's next stop
            self.session.goto(stop.position)
            self.say(Message("debugger.tutorial_stop", {"seq": stop.position}))
            self.busy(None)
            self.redraw(tab=stop_tab(self.session))
            return True
        said = self.session.land(stop, motion, direction)
        if self._in_function and stop.reason == "step":
            said = left_function(self.session, motion)
        said = self._with_note(said)
        if store.complete and stop.reason == "end":
            said = said.then(store.run.outcome)
        self.say(said)
        self.busy(None)
        self.redraw()
        return True

    def _live_paused(self) -> None:
        self._queued.clear()  # esc means stop, including the moves typed ahead
        self.session.goto(len(self.session) - 1)
        self.say(Message("debugger.paused", {"seq": self.session.position}))
        self.busy(None)
        self.redraw()

    def start_indexing(self) -> None:
        self.busy(Message("debugger.indexing"))
        self._build_index()  # waits for the scan the store started in a child process

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        store = self.session.store
        assert isinstance(store, ReplayStore)  # a live run's index grows as it is pulled
        try:
            index = store.build_index()
        except TraceFormatError as error:
            self.fail(str(error))
            return
        self.app.call_from_thread(self._index_ready, index)

    def _index_ready(self, index) -> None:
        self.session.store.index = index
        self.busy(None)
        self.redraw(grew=True)
