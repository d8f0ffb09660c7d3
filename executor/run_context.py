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
from .events.builder import builder_for
from .paths import relative_path
from .recovery.rate_limit import RateLimiter
from .recovery.retry import RetryPolicy


def _unbuilt(*_: Any) -> EventBase:
    raise AssertionError("a site's first emit makes its builder")  # its kind None matches no event class


class _Site:
    """One emitting instruction (a `yield run.emit(...)`): its SourceRef, and the builder it last used."""

    __slots__ = ("code", "last", "source")

    def __init__(self, code: CodeType, source: SourceRef) -> None:
        self.code = code  # kept, so while the site is remembered no other code object can have its id
        self.source = source
        # (kind, number of payload names, builder), replaced whole: threads emitting at one site
        # (parallel tool calls) never see one kind's count with another kind's builder.
        self.last: tuple[type[EventBase] | None, int, Callable[..., EventBase]] = (None, -1, _unbuilt)

    def builder(self, cls: type[EventBase], payload: dict[str, Any]) -> Callable[..., EventBase]:
        """The builder for `cls` from these payload names; the next emit here with as many names reuses it."""
        build = builder_for(cls, tuple(payload))
        self.last = (cls, len(payload), build)
        return build


# Emitting instruction -> _Site, shared by every run. Keyed by the instruction's offset
# (f_lasti), because f_lineno scans the function's line table on every read, and by id(code),
# because hashing a code object hashes its bytecode and constants; one int, no tuple to make:
# offsets sit above bit 48, where no address reaches. A hit is checked against the site's code.
_SITES: dict[int, _Site] = {}
_MAX_SITES = 4096  # only code made at run time (exec) adds new entries without end


def _site_at(frame: Any) -> _Site:
    """The _Site of the instruction `frame` is at, made the first time that instruction emits."""
    code = frame.f_code
    if len(_SITES) >= _MAX_SITES:
        _SITES.clear()
    site = _Site(code, SourceRef(file=relative_path(code.co_filename), line=frame.f_lineno, function=code.co_name))
    _SITES[id(code) + (frame.f_lasti << 48)] = site
    return site


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
        code = frame.f_code
        site = _SITES.get(id(code) + (frame.f_lasti << 48))
        if site is None or site.code is not code:
            site = _site_at(frame)
        # A site passes the same names each time; same kind and count: the same builder, which
        # reads each of its names (a KeyError if one differs) and checks each value's type.
        last_cls, count, build = site.last
        if last_cls is not cls or count != len(payload):
            build = site.builder(cls, payload)
        scope = self._thread.scope
        if scope is None:
            frames = self._known.get(frame) or self._stacks.at(frame)
        else:
            if scope.gate is not None:  # before the lock: a held call must not keep the others from emitting
                scope.gate.before_event(scope.tool_call_id)
            frames = scope.prefix + self._stacks.walk(frame, scope.stop)[1:]
            if "tool_call_id" in cls.model_fields and "tool_call_id" not in payload:
                payload["tool_call_id"] = scope.tool_call_id
                build = builder_for(cls, tuple(payload))
        # Only the loop's thread emits outside concurrent_calls: no lock to take there.
        lock = self._lock if self._concurrent or scope is not None else None
        if lock is not None:
            lock.acquire()  # one seq per event, and seq order is emission order, across threads
        try:
            t = float(self.clock.monotonic() - self._start)
            try:
                event = build(payload, self._seq, self.run_id, t, self._iteration, frames, site.source)
            except KeyError:  # as many names as last time at this site, but not the same ones
                build = builder_for(cls, tuple(payload))
                event = build(payload, self._seq, self.run_id, t, self._iteration, frames, site.source)
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
