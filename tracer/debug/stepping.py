"""Where step / next / step out / continue stop, forwards and backwards, over a trace index."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, overload

from ..trace.index import TraceIndex, scan_windows
from ..trace.numpy_on_use import np
from .breakpoints import Breakpoint, BreakpointSet, ResolveAt, SearchCancelled
from .conditions import MISSING, Resolve


class Motion(str, Enum):
    """pdb's moves, on events: step into the next event, step over (next), step out (return), continue."""

    STEP = "step"
    NEXT = "next"
    OUT = "out"
    CONTINUE = "continue"


@dataclass
class Stop:
    """Where a motion ended and why."""

    position: int
    reason: str  # "step", "next", "out", "breakpoint", "end", "start", "paused" (a search given up)
    breakpoints: list[Breakpoint] = field(default_factory=list)
    moved: bool = True


def _structural(index: TraceIndex, motion: Motion, origin_depth: int, lo: int, hi: int) -> np.ndarray:
    """Events lo..hi-1 where the motion itself (not a breakpoint) would stop."""
    if motion is Motion.STEP:
        return np.ones(hi - lo, dtype=bool)
    if motion is Motion.CONTINUE:
        return np.zeros(hi - lo, dtype=bool)
    depths = index.column("depth", lo, hi)
    # next: same or shallower frame; out: strictly shallower, i.e. the frame has returned.
    return depths <= origin_depth if motion is Motion.NEXT else depths < origin_depth


def first_structural(
    index: TraceIndex, motion: Motion, origin_depth: int, start: int, end: int, direction: int
) -> int | None:
    """The first event from start to end (inclusive, walking `direction`) where the motion stops."""
    if (end - start) * direction < 0:
        return None
    if motion is Motion.STEP:
        return start
    for lo, hi in scan_windows(start, end, direction):
        found = np.flatnonzero(_structural(index, motion, origin_depth, lo, hi))
        if len(found):
            return int(found[0] if direction > 0 else found[-1]) + lo
    return None


def acting_phase_depth(resolve: Resolve, depth: int) -> int:
    """Step-over from a tool-calling round's action or from inside one of its concurrent calls
    steps over the whole acting phase: every call runs, and the stop is the first step event.

    The calls run side by side at the same depth, so plain step-over would hop lane to lane.
    """
    call_id = resolve("tool_call_id")
    if call_id is MISSING or call_id is None:
        return depth
    frames = resolve("frames")
    if resolve("kind") == "agent_action":
        return depth - 1  # below _iter_next_step, which dispatches the calls
    if isinstance(frames, tuple) and "perform_tool_calls" in frames:
        return frames.index("perform_tool_calls") - 1
    return depth


class MotionSearch:
    """Finds where one motion stops; can resume as a live run adds events.

    `advance(complete)` scans the events not yet examined. With `complete=False` (a live run
    that may still produce events) it returns None when the motion has not stopped yet.
    """

    def __init__(
        self,
        index: TraceIndex,
        breakpoints: BreakpointSet,
        resolve_at: ResolveAt,
        origin: int,
        motion: Motion,
        direction: int,
    ) -> None:
        self.index, self.breakpoints, self.resolve_at = index, breakpoints, resolve_at
        self.origin, self.motion, self.direction = origin, motion, direction
        self.origin_depth = index.depth(origin) if 0 <= origin < len(index) else 0
        if motion is Motion.NEXT and 0 <= origin < len(index):
            self.origin_depth = acting_phase_depth(resolve_at(origin), self.origin_depth)
        self.cursor = origin  # the last event examined

    @overload
    def advance(self, complete: Literal[True] = True, cancelled: Callable[[], bool] | None = None) -> Stop: ...
    @overload
    def advance(self, complete: bool, cancelled: Callable[[], bool] | None = None) -> Stop | None: ...
    def advance(self, complete: bool = True, cancelled: Callable[[], bool] | None = None) -> Stop | None:
        """Where the motion stops (None only when not `complete`: a live run may bring more events); with
        `cancelled` (see BreakpointSet.first_stop) a long breakpoint search can be given up, and the motion
        then pauses at the last event it checked."""
        start = self.cursor + self.direction
        end = len(self.index) - 1 if self.direction > 0 else 0
        if (end - start) * self.direction < 0:
            return self._edge(complete)
        target = first_structural(self.index, self.motion, self.origin_depth, start, end, self.direction)
        limit = target if target is not None else end
        try:
            hit = self.breakpoints.first_stop(self.index, self.resolve_at, start, limit, self.direction, cancelled)
        except SearchCancelled as stopped:
            at = self.origin if stopped.last_checked is None else stopped.last_checked
            return Stop(at, "paused", moved=at != self.origin)
        if hit is not None:
            return Stop(hit[0], "breakpoint", hit[1])
        if target is not None:
            return Stop(target, self.motion.value)
        self.cursor = end
        return self._edge(complete)

    @overload
    def _edge(self, complete: Literal[True]) -> Stop: ...
    @overload
    def _edge(self, complete: bool) -> Stop | None: ...
    def _edge(self, complete: bool) -> Stop | None:
        if self.direction > 0 and not complete:
            return None
        if not len(self.index):
            return Stop(0, "start", moved=False)
        position = len(self.index) - 1 if self.direction > 0 else 0
        return Stop(position, "end" if self.direction > 0 else "start", moved=position != self.origin)


def move(
    index: TraceIndex, breakpoints: BreakpointSet, resolve_at: ResolveAt, origin: int, motion: Motion, direction: int
) -> Stop:
    """Where a motion from `origin` stops in a complete trace."""
    return MotionSearch(index, breakpoints, resolve_at, origin, motion, direction).advance(complete=True)


MAX_HOPS = 10_000  # a motion that keeps landing on hidden events gives up (and stays put) after this many


def _is_in(shown: np.ndarray, position: int) -> bool:
    at = int(np.searchsorted(shown, position))
    return at < len(shown) and int(shown[at]) == position


def move_within(
    shown: np.ndarray,
    index: TraceIndex,
    breakpoints: BreakpointSet,
    resolve_at: ResolveAt,
    origin: int,
    motion: Motion,
    direction: int,
) -> Stop:
    """Like move(), landing only on `shown` events ("step within filter"): a step goes to the next
    shown event; other motions go on past hidden stops until they stop on a shown one."""
    edge_reason = "end" if direction > 0 else "start"
    if motion is Motion.STEP:
        after = np.searchsorted(shown, origin, side="right" if direction > 0 else "left")
        at = int(after) if direction > 0 else int(after) - 1
        if 0 <= at < len(shown):
            return Stop(int(shown[at]), "step")
        return Stop(origin, edge_reason, moved=False)
    # One search, resumed past each hidden stop: "next" keeps the depth of the event it started from.
    search = MotionSearch(index, breakpoints, resolve_at, origin, motion, direction)
    for _ in range(MAX_HOPS):
        stop = search.advance(complete=True)
        if stop.position != origin and _is_in(shown, stop.position):
            return stop
        if stop.reason == edge_reason:
            break
        search.cursor = stop.position
    return Stop(origin, edge_reason, moved=False)
