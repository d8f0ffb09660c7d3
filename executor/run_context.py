"""Per-run state shared by every method that emits: the seq counter, the clock and the event factory."""

from __future__ import annotations

import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType
from typing import Any

from .clock import Clock, SystemClock
from .events import EventBase, SourceRef
from .events.builder import builder_for
from .paths import PACKAGE_DIR, relative_path
from .recovery.rate_limit import RateLimiter
from .recovery.retry import RetryPolicy

_PACKAGE_PREFIX = str(PACKAGE_DIR)


class _Site:
    """One emitting instruction (a `yield run.emit(...)`): its SourceRef, and the builder it last used."""

    __slots__ = ("code", "last", "source")

    def __init__(self, code: CodeType, source: SourceRef) -> None:
        self.code = code  # kept, so while the site is remembered no other code object can have its id
        self.source = source
        # (kind, number of payload names, builder), replaced whole: threads emitting at one site
        # (parallel tool calls) never see one kind's count with another kind's builder.
        self.last: tuple[type[EventBase] | None, int, Callable[..., EventBase] | None] = (None, -1, None)

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
_MAX_STACKS = 64  # a loop round makes a handful of new frames


def _site_at(frame: Any) -> _Site:
    """The _Site of the instruction `frame` is at, made the first time that instruction emits."""
    code = frame.f_code
    if len(_SITES) >= _MAX_SITES:
        _SITES.clear()
    site = _Site(code, SourceRef(file=relative_path(code.co_filename), line=frame.f_lineno, function=code.co_name))
    _SITES[id(code) + (frame.f_lasti << 48)] = site
    return site


@dataclass(frozen=True)
class CallScope:
    """What a worker thread running one tool call adds to the events it emits (see parallel_tools)."""

    tool_call_id: str
    prefix: tuple[str, ...]
    """The executor's call stack where the calls were dispatched; the worker's own frames follow it."""
    stop: CodeType
    """The worker function: the stack walk stops there instead of at the run's outermost frame."""
    sink: Callable[[EventBase], None]
    """Receives each event under the emit lock, so the sink sees events in `seq` order."""


_getframe = sys._getframe


class _ThreadScope(threading.local):
    """The CallScope of the current thread; None on the loop's own thread."""

    # A class default rather than getattr(local, "scope", None): a missing attribute on a
    # threading.local raises and catches AttributeError inside, ~0.4 µs on every event.
    scope: CallScope | None = None


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
        self._outermost = outermost  # the stack walk stops at this code object
        self._stacks: dict[Any, tuple[str, ...]] = {}  # frame -> the call stack at it (loop thread only)
        self.iteration = 0
        self._caller = caller  # ...or one further out when this entry point drove it (the user's call)
        self._lock = threading.Lock()  # concurrent tool calls emit from worker threads
        self._concurrent = 0  # how many concurrent_calls blocks are open
        self.run_state: dict[Any, Any] = {}  # what an agent keeps for one run only (a context summary)
        self._thread = _ThreadScope()  # a worker thread's CallScope

    @property
    def iteration(self) -> int:
        """The loop round (1-based) that events are stamped with; 0 before the first."""
        return self._iteration

    @iteration.setter
    def iteration(self, value: int) -> None:
        self._iteration = value
        # The frames remembered for the last round are finished with; holding them would keep
        # their locals (the last prompt) alive, and the scratchpad could no longer grow in place.
        # Those still running (the loop's own, which set this) are kept: they are the same next round.
        stacks, kept = self._stacks, {}
        frame = _getframe(1)
        while frame is not None:
            names = stacks.get(frame)
            if names is None:
                break
            kept[frame] = names
            frame = frame.f_back
        self._stacks = kept

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
        last = site.last
        build = last[2] if last[0] is cls and last[1] == len(payload) else site.builder(cls, payload)
        scope: CallScope | None = self._thread.scope
        if scope is None:
            frames = self._stacks.get(frame) or self._remembered_stack(frame)
            if not self._concurrent:  # the loop's thread alone emits: no lock to take
                try:
                    event = build(
                        payload,
                        self._seq,
                        self.run_id,
                        float(self.clock.monotonic() - self._start),
                        self._iteration,
                        frames,
                        site.source,
                    )
                except KeyError:  # as many names as last time at this site, but not the same ones
                    event = self._build(builder_for(cls, tuple(payload)), cls, payload, frames, site.source)
                self._seq += 1
                return event
        else:
            frames = scope.prefix + self._stack(frame, scope.stop)[1:]
            if "tool_call_id" in cls.model_fields and "tool_call_id" not in payload:
                payload["tool_call_id"] = scope.tool_call_id
                build = builder_for(cls, tuple(payload))
        with self._lock:  # one seq per event, and seq order is emission order, across threads
            event = self._build(build, cls, payload, frames, site.source)
            self._seq += 1
            if scope is not None:
                scope.sink(event)
        return event

    def _build(
        self,
        build: Callable[..., EventBase],
        cls: type[EventBase],
        payload: dict[str, Any],
        frames: tuple[str, ...],
        source: SourceRef,
    ) -> EventBase:
        t = float(self.clock.monotonic() - self._start)
        try:
            return build(payload, self._seq, self.run_id, t, self._iteration, frames, source)
        except KeyError:  # as many names as last time at this site, but not the same ones
            return builder_for(cls, tuple(payload))(payload, self._seq, self.run_id, t, self._iteration, frames, source)

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
        return self._stack(sys._getframe(1))

    @contextmanager
    def call_scope(self, scope: CallScope) -> Iterator[None]:
        """Within this block, events emitted on this thread belong to `scope`'s tool call."""
        self._thread.scope = scope
        try:
            yield
        finally:
            self._thread.scope = None

    def _stack(self, frame: Any, outermost: CodeType | None = None) -> tuple[str, ...]:
        # A suspended `yield from` chain is linked through f_back while it runs,
        # so walking outwards from the emitting frame gives the real call stack.
        names = [frame.f_code.co_name]
        outermost = outermost or self._outermost
        while frame.f_code is not outermost:
            frame = frame.f_back
            if frame is None or (outermost is None and not frame.f_code.co_filename.startswith(_PACKAGE_PREFIX)):
                break
            names.append(frame.f_code.co_name)
        # LangChain: Chain.invoke — when the user called invoke, the stack starts at their call.
        outer = frame.f_back if frame is not None and frame.f_code is self._outermost else None
        if outer is not None and outer.f_code is self._caller:
            names.append(outer.f_code.co_name)
        names.reverse()
        return tuple(names)

    def _remembered_stack(self, frame: Any) -> tuple[str, ...]:
        """The executor call stack at `frame`, outermost first, remembered per frame object.

        A suspended `yield from` chain is linked through f_back while it runs, so walking
        outwards from the emitting frame gives the real call stack. A generator is always
        resumed by the generator that delegates to it, so the stack at a frame stays the same
        while it lives: one walk per new frame, not per event. The remembered frames are held
        (a frame hashes by identity, so no other frame can take its place) until the next round.
        """
        stacks, outermost = self._stacks, self._outermost
        known = stacks.get(frame.f_back)
        if known is not None and frame.f_code is not outermost:  # most often: a new frame under a known one
            names = known + (frame.f_code.co_name,)
            if len(stacks) > _MAX_STACKS:
                stacks.clear()
            stacks[frame] = names
            return names
        pending = []
        names: tuple[str, ...] = ()
        while frame is not None:
            known = stacks.get(frame)
            if known is not None:
                names = known
                break
            code = frame.f_code
            if outermost is None and pending and not code.co_filename.startswith(_PACKAGE_PREFIX):
                break  # without an outermost method, the stack ends where the executor's code does
            pending.append(frame)
            if code is outermost:
                break
            frame = frame.f_back
        if not names and pending and pending[-1].f_code is outermost:
            # LangChain: Chain.invoke — when the user called invoke, the stack starts at their call.
            outer = pending[-1].f_back
            if outer is not None and outer.f_code is self._caller:
                names = (outer.f_code.co_name,)
        if len(stacks) > _MAX_STACKS:  # a round that never ends (a tool run outside the executor)
            stacks.clear()
        for frame in reversed(pending):
            names += (frame.f_code.co_name,)
            stacks[frame] = names
        return names


Listener = Callable[[EventBase], None]
