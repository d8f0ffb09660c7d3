"""Drives a scenario's executor one event at a time, recording the trace and the real locals of each suspended frame."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generator

from executor import SystemClock
from executor.events import EventBase
from executor.run_context import PROJECT_ROOT

from ..replay.builder import replayed_executor
from ..replay.live_model import LiveModel, SkippingClock
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


def short_repr(value: Any) -> str:
    try:
        return _REPR.repr(value)
    except Exception as error:  # a user object whose __repr__ fails must not stop the debugger
        return f"<repr failed: {type(error).__name__}>"


def _relative(filename: str) -> str:
    try:
        return Path(filename).resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return filename


def capture_frames(generator: Generator) -> tuple[FrameSnapshot, ...]:
    """The real call stack of a suspended `yield from` chain, outermost first.

    Each generator's gi_frame is its paused frame; gi_yieldfrom is the generator it is
    delegating to, so following it walks from iter_events down to the yielding method.
    """
    frames = []
    current: Any = generator
    while current is not None and getattr(current, "gi_frame", None) is not None:
        frame = current.gi_frame
        values = tuple((name, short_repr(value)) for name, value in frame.f_locals.items())
        frames.append(FrameSnapshot(frame.f_code.co_name, _relative(frame.f_code.co_filename),
                                    frame.f_lineno, values))
        current = current.gi_yieldfrom
    return tuple(frames)


class LiveRun:
    """A scenario run the debugger pulls from; the fixture's recorded replies answer the model.

    `pull()` runs in a worker thread; it returns (event, frames) or None once the run has
    ended (`outcome` then says how).
    """

    def __init__(self, scenario: Any, trace_path: str | Path, fixture: str | Path | None = None,
                 model: LiveModel | None = None) -> None:
        # A scenario's name, a user's MODULE:FUNCTION, or the scenario / user agent itself.
        scenario = resolve_agent(scenario) if isinstance(scenario, str) else scenario
        self.scenario = scenario
        if model is not None:  # a real model answers; backoff and pacing happen in real time
            executor = scenario.executor(model.model, clock=SystemClock(), **model.executor_options())
            self.writer = TraceWriter(trace_path, redactor=model.redactor(), **header_meta(scenario),
                                      **model.header())
        else:
            # Recorded retries happen again under the recorded policy, without their waits.
            recorded = Trace.load(fixture or scenario.fixture)
            executor = replayed_executor(recorded, scenario.executor, clock=SkippingClock())
            if getattr(scenario, "given_inputs", False) is None:  # a user agent asks what was recorded
                scenario.given_inputs = recorded_inputs(recorded)
            self.writer = TraceWriter(trace_path, **header_meta(scenario), live=True)
        self.generator = executor.iter_events(scenario.inputs())
        self.finished = False
        self.outcome = ""

    @property
    def trace_path(self) -> Path:
        return self.writer.path

    def pull(self) -> tuple[EventBase, tuple[FrameSnapshot, ...]] | None:
        if self.finished:
            return None
        try:
            event = next(self.generator)
        except StopIteration:
            self.finished, self.outcome = True, "the run finished"
            return None
        except Exception as error:  # the run failed; its chain_error event was already handed out
            self.finished, self.outcome = True, f"the run raised {type(error).__name__}: {error}"
            return None
        self.writer(event)
        return event, capture_frames(self.generator)

    def close(self) -> Path:
        """Stop the run where it is and finish the trace file."""
        self.generator.close()
        return self.writer.close()
