"""Drives a scenario's executor one event at a time, recording the trace and the real locals of each suspended frame."""

from __future__ import annotations

import queue
import re
import reprlib
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generator

from executor import SystemClock
from executor.events import EventBase
from executor.run_context import PROJECT_ROOT

from ..replay.builder import replayed_executor
from ..replay.live_model import LiveModel
from ..replay.user_agent import header_meta, resolve_agent
from ..replay.verify import recorded_inputs
from ..trace.transitions import Trace
from ..trace.writer import TraceWriter


def _repr_limits() -> reprlib.Repr:
    limits = reprlib.Repr()  # Python 3.11's Repr takes no keyword arguments
    limits.maxstring = limits.maxother = 160
    limits.maxlist = limits.maxdict = 8
    limits.maxlevel = 3
    return limits


_REPR = _repr_limits()


@dataclass(frozen=True)
class FrameSnapshot:
    """One suspended generator frame as it was when an event was handed out."""

    function: str
    file: str
    line: int
    locals: tuple[tuple[str, str], ...]  # (name, short repr), in definition order


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def short_repr(value: Any) -> str:
    """A bounded repr without memory addresses (they differ on every run and teach nothing)."""
    try:
        return _ADDRESS.sub("", _REPR.repr(value))
    except Exception as error:  # a user object whose __repr__ fails must not stop the debugger
        return f"<repr failed: {type(error).__name__}>"


def _relative(filename: str) -> str:
    try:
        return Path(filename).resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return filename


def _snapshot(frame: Any) -> FrameSnapshot:
    values = tuple((name, short_repr(value)) for name, value in frame.f_locals.items())
    return FrameSnapshot(frame.f_code.co_name, _relative(frame.f_code.co_filename), frame.f_lineno, values)


def capture_frames(generator: Generator, caller: Any = None) -> tuple[FrameSnapshot, ...]:
    """The real call stack of a suspended `yield from` chain, outermost first.

    Each generator's gi_frame is its paused frame; gi_yieldfrom is the generator it is
    delegating to, so following it walks from iter_events down to the yielding method.
    `caller` is the frame that drives the generator (invoke), shown as the outermost one.
    """
    frames = [_snapshot(caller)] if caller is not None else []
    current: Any = generator
    while current is not None and getattr(current, "gi_frame", None) is not None:
        frames.append(_snapshot(current.gi_frame))
        current = current.gi_yieldfrom
    return tuple(frames)


class _Stopped(BaseException):
    """Raised inside the run's thread to end a run the debugger closed (not an Exception: nothing catches it)."""


class LiveRun:
    """A scenario run the debugger pulls from; the fixture's recorded replies answer the model.

    The run is started the way a user starts it, with `invoke`, in a thread whose listener
    hands each event over and then waits, so the stack starts at invoke and the run never gets
    ahead of the learner. `pull()` returns (event, frames) or None once the run has ended
    (`outcome` then says how). trace_path None: nothing is written (a replay re-enacting a trace).
    """

    def __init__(self, scenario: Any, trace_path: str | Path | None, fixture: str | Path | None = None,
                 model: LiveModel | None = None) -> None:
        # A scenario's name, a user's MODULE:FUNCTION, or the scenario / user agent itself.
        scenario = resolve_agent(scenario) if isinstance(scenario, str) else scenario
        self.scenario = scenario
        self.writer: TraceWriter | None = None
        if model is not None:  # a real model answers; backoff and pacing happen in real time
            self.executor = scenario.executor(model.model, clock=SystemClock(), **model.executor_options())
            # flush="event": the run pauses at any event while a person looks at it.
            self.writer = TraceWriter(trace_path, redactor=model.redactor(), flush="event",
                                      **header_meta(scenario), **model.header())
        else:
            # Recorded retries happen again under the recorded policy, on the recording's manual clock.
            recorded = Trace.load(fixture or scenario.fixture)
            self.executor = replayed_executor(recorded, scenario.executor)
            if getattr(scenario, "given_inputs", False) is None:  # a user agent asks what was recorded
                scenario.given_inputs = recorded_inputs(recorded)
            if trace_path is not None:
                self.writer = TraceWriter(trace_path, flush="event", **header_meta(scenario), live=True)
        self.finished = False
        self.outcome = ""
        self._wanted = threading.Semaphore(0)
        self._handed: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closing = False

    @property
    def trace_path(self) -> Path | None:
        return self.writer.path if self.writer else None

    def pull(self) -> tuple[EventBase, tuple[FrameSnapshot, ...]] | None:
        if self.finished:
            return None
        if self._thread is None:
            self._thread = threading.Thread(target=self._drive, name="loopscope-run", daemon=True)
            self._thread.start()
        self._wanted.release()
        handed = self._handed.get()
        if handed is None:
            return None
        if self.writer is not None:
            self.writer(handed[0])
        return handed

    def _drive(self) -> None:
        self._wanted.acquire()
        try:
            self.executor.invoke(self.scenario.inputs(), [self._hand_over])
            outcome = "the run finished"
        except _Stopped:
            outcome = "the run was stopped"
        except Exception as error:  # the run failed; its chain_error event was already handed out
            outcome = f"the run raised {type(error).__name__}: {error}"
        self.finished, self.outcome = True, outcome
        self._handed.put(None)

    def _hand_over(self, event: EventBase) -> None:
        # Called by invoke with the generator paused at its yield: the real frames, exactly.
        caller = sys._getframe(1)
        self._handed.put((event, capture_frames(caller.f_locals.get("events"), caller)))
        self._wanted.acquire()
        if self._closing:
            raise _Stopped

    def close(self) -> Path | None:
        """Stop the run where it is and finish the trace file."""
        if self._thread is not None and not self.finished:
            self._closing = True
            self._wanted.release()
            self._thread.join(timeout=5)
        return self.writer.close() if self.writer else None
