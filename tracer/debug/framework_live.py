"""A framework agent's run (a LangGraph graph) driven one event at a time, with step-into its user's tool functions.

The framework runs the agent in a thread of its own; the adapter's listener hands each event over from the thread
that made it (a parallel tool call's worker included) and holds that thread until the debugger asks for the next
one. The run's clock stops while it is held, so its times are the run's, not the learner's.
"""

from __future__ import annotations

import queue
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any, cast

from executor.callee import callee_of
from executor.events import CalleeRef, ChainStartEvent, Event, EventBase

from ..agents.framework_agent import FrameworkAgent
from ..agents.frameworks import Answerer, RunClosed, answers_in_order, recorded_limits, recorded_replies, state_of
from ..i18n import Message, said_of, verbatim
from ..trace.run_inputs import question_of
from ..trace.transitions import Trace
from .framework_frames import event_frames, is_ours
from .live_run import Pulled, _function_snapshot
from .monitored_call import line_tracer
from .step_into import FunctionTracer, LineStop, why_not_steppable
from .worker_adoption import WorkerAdoption, arguments_of, code_of_function

# A stepped-into call begins this soon after the run goes on from its tool_start, or never (its tool failed
# before its body ran): other threads' events wait for it no longer than this.
START_GRACE = 2.0


class _Stopped(RunClosed):
    """The debugger closed the run while it was held: unwinds the agent's thread (not an Exception)."""


class HeldClock:
    """time.monotonic less the time the person at the debugger took between two events (the run waits then)."""

    def __init__(self) -> None:
        self.held = 0.0
        self._handed_at: float | None = None

    def __call__(self) -> float:
        return time.monotonic() - self.held

    def handed(self) -> None:
        """An event (or a line) was just shown: the run is held from now."""
        self._handed_at = time.monotonic()

    def asked(self) -> None:
        """The next event was asked for: the run goes on, and the time it was held does not count."""
        if self._handed_at is not None:
            self.held += time.monotonic() - self._handed_at
            self._handed_at = None


class _Listener:
    """What the adapter tells of each event: handed to the debugger, and before it, the wait for the turn."""

    def __init__(self, run: FrameworkLiveRun) -> None:
        self.run = run
        self.before_event = run.before_event

    def __call__(self, event: EventBase) -> None:
        self.run._hand_over(event, sys._getframe(1))


class FrameworkLiveRun:
    """The debugger's view of a framework agent running now: pull() hands out its next event (or, after
    step_into, the next line of a user's tool), and nothing runs ahead of the person watching."""

    def __init__(
        self,
        agent: FrameworkAgent,
        question: str,
        trace_path: str | Path,
        answer: Answerer | None = None,
        state: dict[str, Any] | None = None,
        limits: dict[str, Any] | None = None,
    ) -> None:
        self.scenario = agent  # LiveStore names the run in its header by it
        self.question, self.answer = question, answer
        self.state = state  # a LangGraph graph's input state, when it is run on one instead of a question
        self.limits = limits or {}  # the adapter's own limit (an Agents SDK agent's max_turns), when given
        self._path = Path(trace_path)
        self.clock = HeldClock()
        self.finished = False
        self.outcome: Message = verbatim("")  # how the run ended, once it has (str() of it: in English)
        self.line_stop: LineStop | None = None
        self.stepped_into: Event | None = None
        self._tools = agent.adapter.tool_functions(agent.agent)
        self._wanted = threading.Semaphore(0)
        self._handed: queue.Queue[Pulled | LineStop | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closing = False
        self._tracer: FunctionTracer | None = None
        # One thread at a time makes events (a parallel tool call's worker, the graph's own thread): the one
        # handing an event over holds the turn, and while a call is stepped into, its thread keeps it.
        self._turn = threading.Condition()
        self._holder: int | None = None
        self._traced: int | None = None
        self._adoption = WorkerAdoption()  # a sync tool the framework runs on a worker thread is traced there
        self._armed_until = 0.0

    @property
    def trace_path(self) -> Path:
        return self._path

    def pull(self) -> Pulled | LineStop | None:
        """The next event with the frames it was made in; a LineStop while stepping through a tool."""
        if self.finished:
            return None
        if self._thread is None:
            self._thread = threading.Thread(target=self._drive, name="loopscope-framework-run", daemon=True)
            self._thread.start()
        self.clock.asked()
        self._wanted.release()
        handed = self._handed.get()
        self.clock.handed()
        self.line_stop = handed if isinstance(handed, LineStop) else None
        return handed

    def _drive(self) -> None:
        self._wanted.acquire()
        agent = self.scenario
        self._adoption.start()
        try:
            agent.adapter.record(
                agent.agent,
                self.question,
                self._path,
                self.answer,
                {**agent.header_meta(), "live": True},
                listener=_Listener(self),
                clock=self.clock,
                **({"state": self.state} if self.state is not None else {}),
                **self.limits,
            )
            outcome = Message("debugger.run_finished")
        except _Stopped:
            outcome = Message("debugger.run_stopped")
        except Exception as error:  # the agent failed; its chain_error was handed out already
            said = said_of(error)  # an adapter's own refusal says itself in the debugger's language
            outcome = Message("debugger.run_raised_a", {"error_type": type(error).__name__, "error": said})
        self._adoption.stop()
        tracer, self._tracer = self._tracer, None
        if tracer is not None:  # a run stopped inside a traced function leaves no trace function behind
            tracer.uninstall()
        self.finished, self.outcome = True, outcome
        self._handed.put(None)

    def before_event(self) -> None:
        """In a thread about to make an event: wait for the turn (see _turn), then take it."""
        me = threading.get_ident()
        with self._turn:
            while not self._closing and (self._holder not in (None, me) or self._stepping_elsewhere(me)):
                self._turn.wait(0.05)
            if self._closing:
                raise _Stopped
            self._holder = me

    def _hand_over(self, event: EventBase, caller: FrameType | None) -> None:
        # In the thread that made the event (the framework's): its frames are the run's real ones.
        if self._closing:
            raise _Stopped
        me = threading.get_ident()
        if self._holder != me:  # an adapter whose events all come from its event loop's thread (no turns)
            with self._turn:
                while not self._closing and self._stepping_elsewhere(me):
                    self._turn.wait(0.05)
            if self._closing:
                raise _Stopped
        self._end_tracing(event)  # a traced call has returned by the next event of its thread
        self._handed.put((cast(Event, event), event_frames(event, caller)))
        self._wait_for_debugger()
        with self._turn:
            if self._tracer is not None:  # `s` at this tool_start: the tool runs next, in this thread
                self._tracer.install()  # (or a worker's: the adoption hook traces it there)
                self._traced = threading.get_ident()
                self._armed_until = time.monotonic() + START_GRACE
            self._holder = None
            self._turn.notify_all()

    def _stepping_elsewhere(self, me: int) -> bool:
        """Whether a stepped-into call on another thread may still stop at a line: an event of thread `me`
        waits for it, so that after `s` the call's lines come before other events (a parallel call's)."""
        tracer = self._tracer
        if tracer is None or tracer.returned:
            return False
        runner = self._adoption.thread or self._traced
        if tracer.frame is not None:
            return runner is not None and runner != me
        if time.monotonic() > self._armed_until:  # not begun: the tool failed before its body ran
            if self._traced not in (None, me):
                self._give_up()
            return False
        return self._traced not in (None, me)

    def _give_up(self) -> None:
        """The armed call never began: nothing is stepped into (its thread's trace function stays, idle)."""
        tracer, self._tracer, self._traced = self._tracer, None, None
        if tracer is not None:
            tracer.returned = True  # its trace function, still set on that thread, does nothing from now
        self._adoption.disarm()

    def _gate(self, stop: LineStop) -> None:
        self._handed.put(stop)
        self._wait_for_debugger()

    def _wait_for_debugger(self) -> None:
        self._wanted.acquire()
        if self._closing:
            if self._tracer is not None:
                self._tracer.uninstall()
            raise _Stopped

    # -- stepping into the user's tools ---------------------------------------------------------
    def why_not_step_into(self, event: Event) -> Message | None:
        problem = why_not_steppable(event)
        if problem is not None:
            return problem
        if getattr(event, "tool", None) not in self._tools:
            return Message("debugger.into.not_a_tool_function", {"tool": getattr(event, "tool", "?")})
        stepped = self.stepped_into
        if self.stepped_call_pending and stepped is not None and event.seq != stepped.seq:
            # pydantic-ai starts parallel calls before any runs: a second `s` would take the first one's tracer
            return Message("debugger.into.other_call", {"call": getattr(stepped, "tool_call_id", "?")})
        return None

    def tool_callees(self) -> dict[str, CalleeRef | None]:
        """Where each of the agent's tool functions is, known before any runs (line breakpoints reach them)."""
        return {name: callee_of(function) for name, function in self._tools.items()}

    def traced_tools(self) -> frozenset[str]:
        return frozenset(
            name
            for name, function in self._tools.items()
            if not is_ours(getattr(getattr(function, "__code__", None), "co_filename", ""))
        )

    def step_into(self, tool_start: Event, mode: str = "step", lines: frozenset[int] = frozenset()) -> None:
        if self._tracer is not None and self.line_stop is not None:
            self._tracer.retarget(mode, lines)
            return
        callee: CalleeRef | None = getattr(tool_start, "callee", None)
        if tool_start.kind != "tool_start" or callee is None:
            raise ValueError(f"only a tool_start's call can be stepped into, not a {tool_start.kind}'s")
        self._tracer = line_tracer(callee, self._gate, _function_snapshot, mode, lines)
        function = self._tools.get(getattr(tool_start, "tool", ""))
        self._adoption.arm(self._tracer, code_of_function(function), arguments_of(tool_start.tool_input))
        self.stepped_into = tool_start

    def _end_tracing(self, event: EventBase) -> None:
        """In the thread a traced call ran on, once it made its next event: the tracer goes (another
        thread's event, a parallel call's, leaves it where it is)."""
        if self._traced != threading.get_ident():
            return
        other_call = getattr(event, "tool_call_id", None) not in (
            None,
            getattr(self.stepped_into, "tool_call_id", None),
        )
        if other_call and self.stepped_call_pending:
            # Another call's event while the stepped call has not returned: pydantic-ai runs parallel calls as
            # tasks on one event loop's thread, each sync tool on a worker, so the stepped call's lines go on.
            return
        tracer, self._tracer, self._traced = self._tracer, None, None
        self._adoption.disarm()
        if tracer is not None:  # the tracer may have let go of the thread already, when the call returned
            tracer.uninstall()

    def disarm(self) -> None:
        if self.line_stop is None:
            self._tracer = None
            self._adoption.disarm()

    @property
    def armed(self) -> bool:
        return self._tracer is not None

    @property
    def stepped_call_pending(self) -> bool:
        """Stepped into a call that has not returned (not begun yet, or paused at a line)."""
        tracer = self._tracer
        return tracer is not None and not tracer.returned

    @property
    def tracing(self) -> bool:
        return self._tracer is not None and bool(self._tracer.threads)

    def close(self) -> Path | None:
        """Stop the run where it is; the trace holds every event up to there."""
        if self._thread is not None and not self.finished:
            self._closing = True
            with self._turn:
                self._turn.notify_all()
            self._wanted.release()
            self._thread.join(timeout=5)
        return self._path if self._path.exists() else None


def _keys(events: list[Event]) -> list[tuple[str, str | None, int]]:
    """Each event as (kind, its tool call's id, how many such came before): parallel calls' events interleave
    as their threads ran, so a re-run's are matched to the recording's by call, not by position."""
    seen: dict[tuple[str, str | None], int] = {}
    keys: list[tuple[str, str | None, int]] = []
    for event in events:
        base = (event.kind, getattr(event, "tool_call_id", None))
        seen[base] = seen.get(base, 0) + 1
        keys.append((*base, seen[base]))
    return keys


class FrameworkRunAhead:
    """A framework agent's recorded run executed again on its recorded replies, as far as the debugger asks,
    keeping each event's real frames (the Reenactment of a LangGraph trace: Variables shows real locals).
    `pulled[seq]` is the re-run's event for the recording's event `seq`, matched by call (see _keys)."""

    def __init__(self, agent: FrameworkAgent, trace: Trace) -> None:
        # The re-run's own trace is of no use to anyone: it goes to a folder of its own, gone at close, so a
        # debugging session leaves nothing beside the user's recording (nor a partial file when quit mid-way).
        self._scratch = tempfile.TemporaryDirectory(prefix="loopscope-reenacted-")
        path = Path(self._scratch.name) / "reenacted.jsonl"
        first = trace.events[0] if trace.events else None
        inputs = dict(first.inputs) if isinstance(first, ChainStartEvent) else {}
        answers = answers_in_order(recorded_replies(trace.events))
        state = state_of(agent.adapter, inputs)  # a graph run on its own input state is re-run on it
        limits = recorded_limits(agent.adapter, getattr(first, "settings", None))
        self._run = FrameworkLiveRun(agent, question_of(inputs), path, answers, state, limits)
        self._wanted = _keys(list(trace.events))
        self._made: list[Event] = []
        self._found: dict[tuple[str, str | None, int], Pulled] = {}
        self.pulled: list[Pulled | None] = []
        self.outcome: Message | None = None

    def run_to(self, count: int) -> None:
        while len(self.pulled) < count and self.outcome is None:
            got = self._run.pull()
            if got is None:
                self.outcome = self._run.outcome
            elif not isinstance(got, LineStop):
                self._made.append(got[0])
                self._found[_keys(self._made)[-1]] = got
            while len(self.pulled) < len(self._wanted) and self._wanted[len(self.pulled)] in self._found:
                self.pulled.append(self._found.pop(self._wanted[len(self.pulled)]))

    def take(self, seq: int) -> Pulled:
        pulled = self.pulled[seq]
        if pulled is None:
            raise LookupError(f"event {seq} was taken already")
        self.pulled[seq] = None
        return pulled

    def close(self) -> None:
        self._run.close()
        self._scratch.cleanup()
