"""Per-run state shared by every method that emits: the seq counter, the clock and the event factory."""

from __future__ import annotations

import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

from .call_gate import ToolCallGate
from .call_stack import CallScope, CallStacks, ThreadScope
from .clock import Clock, SystemClock
from .events import ChainEndEvent, ChainErrorEvent, EventBase, SourceRef
from .paths import relative_path
from .recovery.rate_limit import RateLimiter
from .recovery.retry import RetryPolicy

# Emitting instruction (its code and offset) -> the SourceRef its events carry, shared by every
# run: the events of one line share one record, and its line (which f_lineno works out from the
# code's line table) is found once.
_SOURCES: dict[tuple[CodeType, int], SourceRef] = {}
_MAX_SOURCES = 4096  # only code made at run time (exec) adds new entries without end


def _source_at(frame: Any) -> SourceRef:
    """The SourceRef of the instruction `frame` is at."""
    code = frame.f_code
    key = (code, frame.f_lasti)
    source = _SOURCES.get(key)
    if source is None:
        if len(_SOURCES) >= _MAX_SOURCES:
            _SOURCES.clear()
        source = _SOURCES[key] = SourceRef(
            file=relative_path(code.co_filename), line=frame.f_lineno, function=code.co_name
        )
    return source


_getframe = sys._getframe


class RunContext:
    """Plays LangChain's run_manager: everything a method needs to narrate what it does.

    `emit` builds an event from the frame that calls it, so `source` is the line of the
    `yield` that hands the event out and `frames` is the executor call stack at that yield.
    """

    def __init__(
        self,
        clock: Clock | None = None,
        run_id: str | None = None,
        outermost: CodeType | None = None,
        retry_policy: RetryPolicy | None = None,
        rate_limiter: RateLimiter | None = None,
        awaits_in_driver: bool = False,
        caller: CodeType | None = None,
        tool_call_gate: ToolCallGate | None = None,
    ) -> None:
        self.clock = clock or SystemClock()
        # True under aiter_events/ainvoke: an awaitable is yielded up to the driver, not run here.
        self.awaits_in_driver = awaits_in_driver
        self.retry_policy = retry_policy  # for model calls, and for tools that have none of their own
        self.rate_limiter = rate_limiter
        self.run_id = run_id or uuid.uuid4().hex[:12]
        if type(self.run_id) is not str:
            raise TypeError(
                f"run_id must be a str, got {type(self.run_id).__name__}; check what run_id_factory returns"
            )
        self._seq = 0
        self._start = self.clock.monotonic()
        self._iteration = 0
        # The walk stops at `outermost`, or one further out when `caller` drove it (the user's call).
        self._stacks = CallStacks(outermost, caller)
        self._known = self._stacks.known  # read on every event: one attribute, not two
        self._lock = threading.Lock()  # concurrent tool calls emit from worker threads
        self._concurrent = 0  # how many concurrent_calls blocks are open
        self.run_state: dict[Any, Any] = {}  # what an agent keeps for one run only (a context summary)
        self._thread = ThreadScope()  # a worker thread's CallScope
        self._at_end: list[Callable[[], None]] = []  # what to do once the run is over (close an MCP connection)
        self.tool_call_gate = tool_call_gate  # paces parallel tool calls for a debugger or a replay (call_gate.py)

    @property
    def iteration(self) -> int:
        """The loop round (1-based) that events are stamped with; 0 before the first."""
        return self._iteration

    def start_round(self, number: int) -> None:
        """Stamp the events from here on with loop round `number` (LangChain: one pass of _call's while).

        Called by the loop itself: the frames remembered for the rounds before are let go,
        all but the caller's own and those it runs in, which are the same next round.
        """
        self._iteration = number
        self._stacks.keep_running(_getframe(1))

    def elapsed(self) -> float:
        return self.clock.monotonic() - self._start

    def emit(self, cls: type[EventBase], **payload: Any) -> EventBase:
        frame = _getframe(1)
        scope = self._thread.scope
        if scope is None:
            frames = self._known.get(frame) or self._stacks.at(frame)
        else:
            if scope.gate is not None:  # before the lock: a held call must not keep the others from emitting
                scope.gate.before_event(scope.tool_call_id)
            frames = scope.prefix + self._stacks.walk(frame, scope.stop)[1:]
            if "tool_call_id" in cls.model_fields and "tool_call_id" not in payload:
                payload["tool_call_id"] = scope.tool_call_id
        # Only the loop's thread emits outside concurrent_calls: no lock to take there.
        lock = self._lock if self._concurrent or scope is not None else None
        if lock is not None:
            lock.acquire()  # one seq per event, and seq order is emission order, across threads
        try:
            event = cls(
                seq=self._seq,
                run_id=self.run_id,
                t=float(self.clock.monotonic() - self._start),
                iteration=self._iteration,
                frames=frames,
                source=_source_at(frame),
                **payload,
            )
            self._seq += 1
            if scope is not None:
                scope.sink(event)
        finally:
            if lock is not None:
                lock.release()
        if self._at_end and (cls is ChainEndEvent or cls is ChainErrorEvent):
            self._ended()
        return event

    def at_end(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, when the run emits chain_end or chain_error (an MCP tool closes its server then)."""
        self._at_end.append(callback)

    def _ended(self) -> None:
        callbacks, self._at_end = self._at_end, []
        for callback in callbacks:
            callback()

    @contextmanager
    def concurrent_calls(self) -> Iterator[None]:
        """Within this block other threads may emit (parallel tool calls), so every emit takes the lock.

        Entered on the loop's thread before the first worker starts and left after the last one is
        done, so outside it the loop's thread is the only one emitting and needs no lock.
        """
        self._concurrent += 1
        try:
            yield
        finally:
            self._concurrent -= 1

    def stack_here(self) -> tuple[str, ...]:
        """The executor call stack at the caller, as an event emitted there would carry it."""
        return self._stacks.walk(_getframe(1))

    @contextmanager
    def call_scope(self, scope: CallScope) -> Iterator[None]:
        """Within this block, events emitted on this thread belong to `scope`'s tool call."""
        self._thread.scope = scope
        try:
            yield
        finally:
            self._thread.scope = None


Listener = Callable[[EventBase], None]
