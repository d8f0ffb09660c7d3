"""Drives a scenario's executor one event at a time, recording the trace and the real locals of each suspended frame."""

from __future__ import annotations

import functools
import queue
import sys
import threading
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from executor import SystemClock
from executor.events import Event, EventBase
from executor.loop_hooks import use_tool_call_gate
from executor.paths import PROJECT_ROOT
from executor.paths import relative_path as callee_path  # the path rule every event's callee uses

from ..agents.user_agent import header_meta, resolve_agent
from ..i18n import Message, verbatim
from ..models.live_model import LiveModel
from ..replay.builder import replayed_executor
from ..replay.verify import drain_events, recorded_entry, recorded_inputs
from ..trace.transitions import Trace
from ..trace.writer import TraceWriter
from .locals_repr import kept_repr, short_repr
from .monitored_call import line_tracer
from .paced_calls import CallsStopped, PacedCalls, recorded_call_order
from .step_into import LOOPSCOPE_PACKAGES, FunctionTracer, LineStop, is_async_tool, on_awaiting_loop, why_not_steppable


@dataclass(frozen=True)
class FrameSnapshot:
    """One suspended generator frame as it was when an event was handed out."""

    function: str
    file: str
    line: int
    locals: tuple[tuple[str, str], ...]  # (name, short repr), in definition order


@functools.lru_cache(maxsize=256)  # a code object's file, asked for each frame of each event: resolve() stats it
def _relative(filename: str) -> str:
    try:
        return Path(filename).resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return filename


def _snapshot(frame: Any, seen: dict[int, str] | None = None) -> FrameSnapshot:
    seen = {} if seen is None else seen
    values = tuple((name, kept_repr(value, seen)) for name, value in frame.f_locals.items())
    return FrameSnapshot(frame.f_code.co_name, _relative(frame.f_code.co_filename), frame.f_lineno, values)


def _function_snapshot(frame: Any, name: str) -> FrameSnapshot:
    """A traced user function's frame, its file named as the event's callee names it."""
    values = tuple((local, short_repr(value)) for local, value in frame.f_locals.items())
    return FrameSnapshot(name, callee_path(frame.f_code.co_filename), frame.f_lineno, values)


def capture_frames(generator: Generator | None, caller: Any = None) -> tuple[FrameSnapshot, ...]:
    """The real call stack of a suspended `yield from` chain, outermost first.

    Each generator's gi_frame is its paused frame; gi_yieldfrom is the generator it is
    delegating to, so following it walks from iter_events down to the yielding method.
    `caller` is the frame that drives the generator (invoke), shown as the outermost one.
    """
    seen: dict[int, str] = {}
    frames = [_snapshot(caller, seen)] if caller is not None else []
    current: Any = generator
    while current is not None and getattr(current, "gi_frame", None) is not None:
        frames.append(_snapshot(current.gi_frame, seen))
        current = current.gi_yieldfrom
    return tuple(frames)


Pulled = tuple[Event, tuple[FrameSnapshot, ...]]  # an event, and the frames suspended when it was handed out


class _Stopped(BaseException):
    """Raised inside the run's thread to end a run the debugger closed (not an Exception: nothing catches it)."""


class LiveRun:
    """A scenario run the debugger pulls from; the fixture's recorded replies answer the model.

    The run is started the way a user starts it, with `invoke`, in a thread whose listener
    hands each event over and then waits, so the stack starts at invoke and the run never gets
    ahead of the learner. `pull()` returns (event, frames) or None once the run has ended
    (`outcome` then says how). trace_path None: nothing is written (a replay re-enacting a trace).
    """

    def __init__(
        self,
        scenario: Any,
        trace_path: str | Path | None,
        fixture: str | Path | None = None,
        model: LiveModel | None = None,
    ) -> None:
        # A scenario's name, a user's MODULE:FUNCTION, or the scenario / user agent itself.
        scenario = resolve_agent(scenario) if isinstance(scenario, str) else scenario
        self.scenario = scenario
        self.writer: TraceWriter | None = None
        self._entry = "invoke"
        order: list[tuple[str, bool]] | None = None  # the recorded turns of parallel calls, when re-executing
        if model is not None:  # a real model answers; backoff and pacing happen in real time
            self.executor = scenario.executor(model.model, clock=SystemClock(), **model.executor_options())
            # flush="event": the run pauses at any event while a person looks at it.
            if trace_path is not None:
                self.writer = TraceWriter(
                    trace_path, redactor=model.redactor(), flush="event", **header_meta(scenario), **model.header()
                )
        else:
            # Recorded retries happen again under the recorded policy, on the recording's manual clock.
            recorded = Trace.load(fixture or scenario.fixture)
            self.executor = replayed_executor(recorded, scenario.executor)
            if getattr(scenario, "given_inputs", False) is None:  # a user agent asks what was recorded
                scenario.given_inputs = recorded_inputs(recorded)
            if trace_path is not None:
                self.writer = TraceWriter(trace_path, flush="event", **header_meta(scenario), live=True)
            self._entry = recorded_entry(recorded.events)  # invoke, or iter_events for an ainvoke recording
            order = recorded_call_order(recorded.events)
        self.replaying = model is None  # tools marked non-deterministic answer from the recording
        # A reply's parallel calls are held at each event until it is pulled, and a re-execution's take
        # their recorded turns: the run never gets ahead of the debugger, and its locals are the recorded ones.
        self.calls = PacedCalls(order)
        self.calls.on_release, self.calls.on_rest = self._call_released, self._call_at_rest
        use_tool_call_gate(self.executor, self.calls)
        self.finished = False
        self.outcome = verbatim("")  # how the run ended, once it has (str() of it: in English)
        self._wanted = threading.Semaphore(0)
        self._handed: queue.Queue[Pulled | LineStop | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closing = False
        self.line_stop: LineStop | None = None  # set while paused inside a traced tool function
        self.stepped_into: Event | None = None  # the tool_start of the call traced last (or now)
        self._tracer: FunctionTracer | None = None  # armed by the debugger, installed by the run's thread
        self._traced_call: tuple[int, str] | None = None  # (seq of its tool_start, call id): a parallel call's
        self._following: str | None = None  # the id of that call once it runs, traced, on its thread
        self._call_rested = threading.Event()  # the parallel call being traced came to its next event, or ended

    @property
    def trace_path(self) -> Path | None:
        return self.writer.path if self.writer else None

    def pull(self) -> Pulled | LineStop | None:
        """The next event with its frames; a LineStop only after `step_into` (the traced function's next line)."""
        if self.finished:
            return None
        if self._thread is None:
            self._thread = threading.Thread(target=self._drive, name="loopscope-run", daemon=True)
            self._thread.start()
        self._wanted.release()
        handed = self._handed.get()
        if isinstance(handed, LineStop):
            self.line_stop = handed
            return handed
        self.line_stop = None
        if handed is None:
            return None
        if self.writer is not None:
            self.writer(handed[0])
        return handed

    def why_not_step_into(self, event: Event) -> Message | None:
        """None when `step_into(event)` can trace the tool's function line by line, else why not."""
        problem = why_not_steppable(event)
        tool = next((t for t in self.executor.tools if t.name == getattr(event, "tool", None)), None)
        return problem if problem is not None or tool is None else self._why_not_trace(tool)

    def traced_tools(self) -> frozenset[str]:
        """The tools whose calls a line breakpoint stops in, line by line (the others stop at their events)."""
        return frozenset(
            tool.name
            for tool in self.executor.tools
            if tool.callee is not None
            and not tool.callee.file.startswith(LOOPSCOPE_PACKAGES)
            and self._why_not_trace(tool) is None
        )

    def _why_not_trace(self, tool: Any) -> Message | None:
        if self.replaying and not tool.deterministic:
            return Message("debugger.into.not_rerun", {"tool": tool.name})
        if tool.emits_events:
            return Message("debugger.into.own_events", {"tool": tool.name})
        if tool.timeout is not None:
            return Message("debugger.into.timeout", {"tool": tool.name})
        return None

    def step_into(self, tool_start: Event, mode: str = "step", lines: frozenset[int] = frozenset()) -> None:
        """Before the next pull: trace the call about to run (the tool of `tool_start`, the newest event),
        stopping at every line ("step") or at `lines` only; while inside it, change how the next pull stops."""
        if self._tracer is not None and self.line_stop is not None:  # already inside: the run's thread waits
            self._tracer.retarget(mode, lines)
            return
        if tool_start.kind != "tool_start":  # callers ask why_not_step_into first, which says so
            raise ValueError(f"only a tool_start's call can be stepped into, not a {tool_start.kind}'s")
        tool = next((t for t in self.executor.tools if t.name == tool_start.tool), None)
        self._tracer = line_tracer(tool_start.callee, self._gate, _function_snapshot, mode, lines)
        self._tracer.on_loop = is_async_tool(tool)
        # A parallel call runs on a worker thread, held at this tool_start (PacedCalls) until it is passed.
        call_id = tool_start.tool_call_id
        worker = call_id is not None and "perform_tool_calls" in tool_start.frames
        self._traced_call = (tool_start.seq, call_id) if call_id is not None and worker else None
        self.stepped_into = tool_start

    def _drive(self) -> None:
        self._wanted.acquire()
        try:
            if self._entry == "invoke":
                self.executor.invoke(self.scenario.inputs(), [self._hand_over])
            else:  # a recording made under ainvoke or by pulling iter_events: its stacks start there
                drain_events(self.executor.iter_events(self.scenario.inputs()), [self._hand_over])
            outcome = Message("debugger.run_finished")
        except (_Stopped, CallsStopped):
            outcome = Message("debugger.run_stopped")
        except Exception as error:  # the run failed; its chain_error event was already handed out
            outcome = Message("debugger.run_raised", {"error": f"{type(error).__name__}: {error}"})
        self._end_tracing()  # a run stopped inside a traced function leaves no trace function behind
        self.finished, self.outcome = True, outcome
        self._handed.put(None)

    def _hand_over(self, event: EventBase) -> None:
        # Called by invoke (or drain_events) with the generator paused at its yield: the real frames, exactly.
        caller = sys._getframe(1)
        while caller.f_back is not None and "events" not in caller.f_locals:  # a listener wrapping this one
            caller = caller.f_back
        self._end_tracing()  # any traced call has returned by the next event (tool_end / tool_error)
        outermost = caller if caller.f_code.co_name == "invoke" else None  # the user's call, when they made it
        # The executor types its listeners by the base class, but every event it makes is one of the union's.
        self._handed.put((cast(Event, event), capture_frames(caller.f_locals.get("events"), outermost)))
        self._wait_for_debugger()
        if self._tracer is not None and self._traced_call is not None:
            self._follow_call(event)
        elif self._tracer is not None:  # `s` at this tool_start: trace the call that runs next
            self._tracer.install()
            if self._tracer.on_loop:
                on_awaiting_loop(self._tracer.install)  # an async tool's body runs on the awaiting loop
        self.calls.handed(event)

    def _follow_call(self, event: EventBase) -> None:
        """`s` at a parallel call's tool_start: let that call go, traced on its own thread, and hand out
        nothing else until it comes to its next event or ends (the other calls wait at their events)."""
        self._call_rested.clear()
        self.calls.handed(event)
        while not self._call_rested.wait(0.05):
            if self._closing:
                raise _Stopped

    def _call_released(self, event: EventBase) -> None:
        # PacedCalls, on the call's worker thread, once `event` was passed: the traced call starts here.
        tracer, traced = self._tracer, self._traced_call
        if tracer is not None and traced is not None and traced[0] == event.seq:
            self._following = traced[1]
            tracer.install()
            if tracer.on_loop:
                on_awaiting_loop(tracer.install)

    def _call_at_rest(self, call_id: str) -> None:
        # PacedCalls, on a call's worker thread, at its next event or its end: a traced call is over.
        tracer = self._tracer
        if self._following is None or self._following != call_id:
            return
        self._tracer, self._traced_call, self._following = None, None, None
        if tracer is not None:
            tracer.uninstall()
            if tracer.threads:  # still installed on the awaiting loop's thread: removed there, and waited for
                on_awaiting_loop(tracer.uninstall, wait=True)
        self._call_rested.set()

    def _gate(self, stop: LineStop) -> None:
        # Called by the trace function, in the thread running the tool, before the line runs.
        self._handed.put(stop)
        self._wait_for_debugger()

    def _wait_for_debugger(self) -> None:
        self._wanted.acquire()
        if self._closing:
            if self._tracer is not None:
                self._tracer.uninstall()  # this thread's; raising out of a trace function unsets it too
            raise _Stopped

    def _end_tracing(self) -> None:
        tracer, self._tracer = self._tracer, None
        if tracer is None:
            return
        tracer.uninstall()
        if tracer.threads:  # still installed on the awaiting loop's thread: removed there, and waited for
            on_awaiting_loop(tracer.uninstall, wait=True)

    def disarm(self) -> None:
        """Let the call about to run go untraced after all (its line breakpoints were deleted)."""
        if self.line_stop is None:  # not installed yet: the run's thread installs it when it resumes
            self._tracer, self._traced_call = None, None

    @property
    def armed(self) -> bool:
        """Whether the call about to run (or running) is to be traced line by line."""
        return self._tracer is not None

    @property
    def tracing(self) -> bool:
        """Whether a trace function is installed on any thread now (tests check it is always removed)."""
        return self._tracer is not None and bool(self._tracer.threads)

    def close(self) -> Path | None:
        """Stop the run where it is and finish the trace file."""
        if self._thread is not None and not self.finished:
            self._closing = True
            self.calls.close()  # parallel calls held at their events stop there
            self._wanted.release()
            self._thread.join(timeout=5)
        return self.writer.close() if self.writer else None
