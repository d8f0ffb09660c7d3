"""Per-run state shared by every method that emits: the seq counter, the clock and the event factory."""

from __future__ import annotations

import sys
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Iterator

from .clock import Clock, SystemClock
from .events import EventBase, SourceRef
from .rate_limit import RateLimiter
from .retry import RetryPolicy

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent
_PACKAGE_PREFIX = str(PACKAGE_DIR)


def _relative(filename: str) -> str:
    path = Path(filename).resolve()
    try:
        return path.relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return path.as_posix()


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


class RunContext:
    """Plays LangChain's run_manager: everything a method needs to narrate what it does.

    `emit` builds an event from the frame that calls it, so `source` is the line of the
    `yield` that hands the event out and `frames` is the executor call stack at that yield.
    """

    def __init__(self, clock: Clock | None = None, run_id: str | None = None,
                 outermost: CodeType | None = None, retry_policy: RetryPolicy | None = None,
                 rate_limiter: RateLimiter | None = None, awaits_in_driver: bool = False) -> None:
        self.clock = clock or SystemClock()
        # True under aiter_events/ainvoke: an awaitable is yielded up to the driver, not run here.
        self.awaits_in_driver = awaits_in_driver
        self.retry_policy = retry_policy  # for model calls, and for tools that have none of their own
        self.rate_limiter = rate_limiter
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.iteration = 0
        self._seq = 0
        self._start = self.clock.monotonic()
        self._outermost = outermost  # the stack walk stops at this code object
        self._sources: dict[tuple[CodeType, int], SourceRef] = {}
        self._lock = threading.Lock()  # concurrent tool calls emit from worker threads
        self.run_state: dict[Any, Any] = {}  # what an agent keeps for one run only (a context summary)
        self._thread = threading.local()  # a worker thread's CallScope

    def elapsed(self) -> float:
        return self.clock.monotonic() - self._start

    def emit(self, cls: type[EventBase], **payload: Any) -> EventBase:
        frame = sys._getframe(1)
        code = frame.f_code
        key = (code, frame.f_lineno)
        source = self._sources.get(key)
        if source is None:
            source = SourceRef(file=_relative(code.co_filename), line=frame.f_lineno,
                               function=code.co_name)
            self._sources[key] = source
        scope: CallScope | None = getattr(self._thread, "scope", None)
        if scope is None:
            frames = self._stack(frame)
        else:
            frames = scope.prefix + self._stack(frame, scope.stop)[1:]
            if "tool_call_id" in cls.model_fields:
                payload.setdefault("tool_call_id", scope.tool_call_id)
        with self._lock:  # one seq per event, and seq order is emission order, across threads
            payload.update(seq=self._seq, run_id=self.run_id, t=self.clock.monotonic() - self._start,
                           iteration=self.iteration, frames=frames, source=source)
            # Same validation as cls(**payload), minus the Python-level __init__ (a third faster).
            event = cls.__pydantic_validator__.validate_python(payload)
            self._seq += 1
            if scope is not None:
                scope.sink(event)
        return event

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
        names.reverse()
        return tuple(names)


Listener = Callable[[EventBase], None]
