"""The debugger's state without the widgets: where we are, how motions land, search, tutorial stops."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from executor.events import Event

from ..i18n import Message
from ..trace.index import TraceIndex
from ..trace.numpy_on_use import np
from ..trace.reader import TraceFile, TraceFormatError
from .breakpoints import BreakpointSet
from .cost_book import CostBook
from .event_filter import EventFilter, FilteredView
from .event_store import EventStore, LiveStore, ReplayStore
from .line_breakpoints import callee_book
from .options import DEFAULT_OPTIONS, DebuggerOptions
from .source_map import FrameLocation, definition_line, frame_locations
from .stepping import Motion, MotionSearch, Stop

if TYPE_CHECKING:
    from .framework_live import FrameworkLiveRun
    from .live_run import LiveRun

SEARCH_BATCH = 20_000  # lines between checks for a newer search and releases of read pages


def motion_name(motion: Motion, direction: int = 1) -> Message:
    """The motion as a status message names it ("step", "continue backwards")."""
    return Message(f"debugger.motion.{motion.value}" + (".back" if direction < 0 else ""))


def breakpoint_names(breakpoints: Sequence[Any]) -> Message:
    """The breakpoints a motion stopped at, with their hit counts ("#1 kind=tool_error (hit 2)")."""
    named = [
        Message("debugger.breakpoint_hits", {"number": b.number, "spec": b.spec, "hits": b.hits}) for b in breakpoints
    ]
    said = named[0]
    for more in named[1:]:
        said = Message("debugger.and", {"first": said, "then": more})
    return said


@dataclass(frozen=True)
class UnreadableEvent:
    """Stands in for an event whose line is broken, so the panes can say so instead of crashing."""

    seq: int
    problem: str
    kind: str = "unreadable"
    iteration: int = 0
    frames: tuple[str, ...] = ()


class DebugSession:
    """Position, frame selection, search and the timeline filter; every pane is drawn from this. What the
    screen says about a motion is returned (a Message), not kept here: the screen holds what it shows."""

    def __init__(
        self,
        store: EventStore,
        breakpoints: BreakpointSet,
        stops: Sequence[Any] = (),
        title: str | None = None,
        options: DebuggerOptions = DEFAULT_OPTIONS,
        *,
        wait_for_locals: bool = False,
    ) -> None:
        self.store = store
        self.options = options  # what the user asked for (prices, playground model, --lang): read, never set
        self.breakpoints = breakpoints
        self.stops = sorted(stops, key=lambda stop: stop.seq)
        self.title = title or store.path.name
        self.position = 0
        self.frame_up = 0  # 0 = the event's own frame; u/d move it towards the caller and back
        self.search_text = ""
        self.view = FilteredView()  # the timeline filter; stepping ignores it unless step_within
        # False (the window's): real locals are only shown once a worker has re-executed the recording
        # that far, so no frame waits for the re-run; True (a script's): asking re-executes now.
        self.wait_for_locals = wait_for_locals

    # -- events -------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.store)

    def event(self, position: int | None = None) -> Event | UnreadableEvent:
        position = self.position if position is None else position
        try:
            return self.store.event(position)
        except TraceFormatError as error:
            return UnreadableEvent(position, str(error))

    @cached_property
    def costs(self) -> CostBook:
        """Tokens and dollars of the model calls (the price table is read on first use)."""
        return CostBook(self.store, self.options.price_table())

    @property
    def index_ready(self) -> bool:
        return self.store.index is not None

    @property
    def index(self) -> TraceIndex:
        """The store's index, for motions and filters (the window holds keys back until index_ready)."""
        index = self.store.index
        if index is None:
            raise RuntimeError("the trace is still being indexed; wait for index_ready")
        return index

    # -- the timeline filter ------------------------------------------------------------------------
    def shown(self):
        """Sorted positions the timeline shows, or None when unfiltered (or not indexed yet)."""
        index = self.store.index
        return None if index is None else self.view.shown(index, self.store.resolve_at)

    def set_filter(self, text: str) -> None:
        """Filter the timeline (FilterSpecError when `text` cannot be read); empty text clears it."""
        self.view.set(EventFilter.parse(text) if text.strip() else None)

    def filter_positions(self, event_filter: EventFilter, cancelled: Callable[[], bool] = lambda: False):
        """The sorted positions `event_filter` shows, computed without installing it (any thread may
        call this: a condition on a big trace reads every event); None when cancelled."""
        index = self.index
        mask = event_filter.mask(index, self.store.resolve_at, 0, len(index), cancelled)
        return None if mask is None else np.flatnonzero(mask)

    def install_filter(self, event_filter: EventFilter, shown, length: int) -> None:
        """Use a filter whose positions filter_positions computed for the first `length` events."""
        self.view.set(event_filter, shown, length)

    def is_shown(self, position: int) -> bool:
        shown = self.shown()
        return shown is None or (
            FilteredView.row_of(shown, position) < len(shown)
            and int(shown[FilteredView.row_of(shown, position)]) == position
        )

    # -- moving ---------------------------------------------------------------------------------------
    def motion(self, motion: Motion, direction: int) -> MotionSearch:
        return MotionSearch(self.index, self.breakpoints, self.store.resolve_at, self.position, motion, direction)

    def land(self, stop: Stop, motion: Motion, direction: int) -> Message:
        """Move to where a motion stopped; returns what to say about it."""
        self.goto(stop.position)
        name = motion_name(motion, direction)
        if stop.reason == "breakpoint":
            return Message("debugger.at_breakpoint", {"motion": name, "names": breakpoint_names(stop.breakpoints)})
        if stop.reason in ("end", "start"):
            edge = "last" if stop.reason == "end" else "first"
            return Message(f"debugger.reached_{edge}" + ("" if stop.moved else "_already"), {"motion": name})
        if stop.reason == "out":
            frames = self.event(stop.position).frames
            if frames:
                return Message("debugger.left_frame_in", {"motion": name, "function": frames[-1]})
            return Message("debugger.left_frame", {"motion": name})
        if stop.reason == "paused":
            if stop.moved:
                return Message("debugger.paused_at", {"motion": name, "seq": stop.position})
            return Message("debugger.paused_at_start", {"motion": name})
        return Message("debugger.landed", {"motion": name, "seq": stop.position})

    def goto(self, position: int) -> None:
        self.position = max(0, min(position, len(self.store) - 1))
        self.frame_up = 0

    def move_frame(self, steps: int) -> bool:
        """Select a caller (steps > 0) or callee frame; False when there is none that way."""
        depth = len(self.frames())
        wanted = self.frame_up + steps
        if not 0 <= wanted < depth:
            return False
        self.frame_up = wanted
        return True

    # -- frames ---------------------------------------------------------------------------------------
    def real_frames(self) -> tuple[Any, ...] | None:
        """The captured (live) or re-executed (replay) frames with their locals at the current event."""
        if not self.position < len(self.store):
            return None
        return self.store.frames_at(self.position, wait=self.wait_for_locals)

    def locals_pending(self) -> bool:
        """True while the re-run that brings the current event's real locals has not got there yet."""
        return self.position < len(self.store) and self.store.locals_pending(self.position)

    def frames(self) -> list[FrameLocation]:
        """The current event's call stack, outermost first (exact lines in live mode)."""
        live = self.real_frames()
        event = self.event()
        if isinstance(event, UnreadableEvent):
            return []
        if live and (_same_stack(live, event.frames) or _framework_model_call(event)):
            frames = [FrameLocation(f.function, f.file, f.line, True) for f in live]
        elif event.stack:  # a traced LangChain run recorded every frame's line
            frames = [FrameLocation(f.function, f.file, f.line, True) for f in event.stack]
        else:
            frames = frame_locations(tuple(event.frames), event.source.file, event.source.line)
        return frames + callee_frames(event, self.store.function_frame(self.position))

    def selected_frame(self) -> FrameLocation | None:
        frames = self.frames()
        return frames[-1 - self.frame_up] if frames else None

    # -- search -----------------------------------------------------------------------------------------
    def search(self, text: str, direction: int = 1, cancelled: Callable[[], bool] = lambda: False) -> int | None:
        """The next event (wrapping round) whose text contains `text`; smart case: lower case matches any case.

        Every SEARCH_BATCH lines it asks `cancelled()` (a newer search replaced this one) and lets the
        store drop the pages it read, so searching a big trace does not keep it all in memory.
        """
        self.search_text = text
        needle = json.dumps(text, ensure_ascii=False)[1:-1].encode()
        fold = text == text.lower()
        if fold:
            needle = needle.lower()
        total = len(self.store)
        release = getattr(self.store, "release", None)
        for step in range(1, total + 1):
            position = (self.position + direction * step) % total
            if step % SEARCH_BATCH == 0:
                if cancelled():
                    return None
                if release is not None:
                    release(min(position, position - direction * SEARCH_BATCH) % total, SEARCH_BATCH)
            raw = self.store.raw_line(position)
            if needle in (raw.lower() if fold else raw) and _in_values(json.loads(raw), text, fold):
                return position
        return None

    # -- tutorial stops -------------------------------------------------------------------------------
    def current_stop(self) -> tuple[int, Any] | None:
        """The last tutorial stop at or before the current event, with its 1-based number."""
        found = None
        for number, stop in enumerate(self.stops, start=1):
            if stop.seq <= self.position:
                found = (number, stop)
        return found

    def stop_position(self, direction: int) -> int | None:
        """Where the next (or previous) tutorial stop is."""
        if direction > 0:
            later = [stop.seq for stop in self.stops if stop.seq > self.position]
            return later[0] if later else None
        earlier = [stop.seq for stop in self.stops if stop.seq < self.position]
        return earlier[-1] if earlier else None


LOOPSCOPE_PACKAGES = ("executor/", "tracer/", "tutorials/")


def callee_frames(event: Any, inside: Any = None) -> list[FrameLocation]:
    """The user's function a tool or model event calls into, shown below the executor's frames
    (at its `def` line; at the line it is paused on when a live run stepped `inside` it)."""
    callee = getattr(event, "callee", None)
    if callee is None:
        return []
    # The lesson's own frames suffice for loopscope's runs; a traced LangChain run's stack is LangChain's,
    # so its tool's function is shown wherever it is (a tutorial's own tool too).
    if callee.file.startswith(LOOPSCOPE_PACKAGES) and not getattr(event, "stack", None):
        return []
    line = inside.line if inside is not None else definition_line(callee.file, callee.line)
    return [FrameLocation(callee.qualname or callee.function, callee.file, line, True, callee=True)]


def _in_values(value: Any, text: str, fold: bool) -> bool:
    """True when `text` is inside a string value (not just a key) of the decoded event."""
    if isinstance(value, str):
        return text in (value.lower() if fold else value)
    if isinstance(value, dict):
        return any(_in_values(item, text, fold) for item in value.values())
    if isinstance(value, list):
        return any(_in_values(item, text, fold) for item in value)
    return text == str(value)


def build_session(
    trace_path: str | os.PathLike[str] | None,
    *,
    stops: Sequence[Any] | None = None,
    title: str | None = None,
    live: LiveRun | FrameworkLiveRun | None = None,
    options: DebuggerOptions = DEFAULT_OPTIONS,
    wait_for_locals: bool = False,
) -> DebugSession:
    """The session the app shows. Raises TraceFormatError (bad trace) or BreakpointSpecError (bad --break).
    `options.agents`: the user's --agent specs; a trace's agent is re-run for real locals only if trusted.
    `wait_for_locals`: True for a script that wants a frame's real locals when it asks (see DebugSession)."""
    store: EventStore
    if live is not None:
        store = LiveStore(live)
        pulled = live.pull()  # chain_start comes before any model call, so this never waits
        if isinstance(pulled, tuple):  # nothing is traced line by line yet, so never a LineStop
            store.append(*pulled)
        path = store.path
    elif trace_path is not None:
        store = ReplayStore(TraceFile(trace_path), options.agents)
        path = Path(trace_path)  # as the user named it (an imported file's store reads a converted copy)
    else:
        raise TypeError("build_session needs a trace file or a live run")
    marks = BreakpointSet.for_trace(path)
    marks.callees = callee_book(store)  # where line breakpoints in the user's files reach
    marks.traced = live.traced_tools if live is not None else None
    for spec in options.breakpoints:
        marks.add(spec)
    marks.update_reach()
    return DebugSession(store, marks, stops or (), title, options, wait_for_locals=wait_for_locals)


def _framework_model_call(event: Event) -> bool:
    """A framework's model call recorded as its step (`Runner.run` > `get_response` in "(openai-agents)"), not as
    lines: its captured frames (down to the frame that asked the model) are the stack the pane lists instead."""
    step = not event.stack and event.source.line == 0 and event.source.file.startswith("(")
    return step and event.kind in ("llm_start", "llm_end")


def _same_stack(live: Sequence[Any], recorded: Sequence[str]) -> bool:
    """Whether the captured frames are the event's own stack. A tool call running in a worker thread
    (parallel tool calls) is not on the captured generator chain, which then ends at its caller."""
    names = [frame.function for frame in live]
    return names[-len(recorded) :] == list(recorded) if recorded else True
