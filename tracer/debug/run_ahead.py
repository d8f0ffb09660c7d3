"""A recording's run executed again in a thread of its own, going ahead to the event asked for and waiting there."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any, cast

from executor.events import Event
from executor.loop_hooks import use_tool_call_gate

from ..replay.builder import replayed_executor
from ..replay.verify import drain_events, recorded_entry, recorded_inputs
from ..trace.transitions import Trace
from .live_run import FrameSnapshot, capture_frames
from .locals_repr import forget_kept_reprs
from .paced_calls import CallsStopped, PacedCalls, recorded_call_order

Pulled = tuple[Event, tuple[FrameSnapshot, ...]]  # an event, and the frames suspended when it was handed out


class _Stopped(BaseException):
    """Raised inside the run's thread when the run is closed (not an Exception: nothing in the loop catches it)."""


class RunAhead:
    """The run started as it was recorded (invoke, or iter_events for a recording made so), the recording's
    replies answering, in a thread whose listener keeps each event with the real frames of that moment and
    waits only once it has handed out as many events as were asked for: its paused generator chain is the
    checkpoint the next request resumes from, and there is no hand-over per event (LiveRun's, for a person
    stepping, cost a thread switch each way per event, most of a re-execution's time on a busy machine).
    A reply's parallel calls take their recorded turns (PacedCalls), as in LiveRun, so the loop's locals
    are the recorded ones at every event.
    """

    def __init__(self, agent: Any, fixture: Path) -> None:
        recorded = Trace.load(fixture)
        self.executor = replayed_executor(recorded, agent.executor)  # the recording's clock, retries and run id
        if getattr(agent, "given_inputs", False) is None:  # a user's agent asks what the recording asked
            agent.given_inputs = recorded_inputs(recorded)
        self.inputs = agent.inputs()
        self._entry = recorded_entry(recorded.events)  # invoke, or iter_events for an ainvoke recording
        self.calls = PacedCalls(recorded_call_order(recorded.events))
        use_tool_call_gate(self.executor, self.calls)
        self.pulled: list[Pulled | None] = []  # None once taken (take): only the frames are kept, by the taker
        self.outcome: str | None = None  # how the run ended, once it has
        self._wanted = 0
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False

    def run_to(self, count: int) -> None:
        """Wait until the run has handed out `count` events (or has ended)."""
        with self._changed:
            if self._closing:
                return
            if count > self._wanted:
                self._wanted = count
                self._changed.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(target=self._drive, name="loopscope-reenact", daemon=True)
                self._thread.start()
            while len(self.pulled) < count and self.outcome is None:
                self._changed.wait()

    def take(self, seq: int) -> Pulled:
        """Event `seq` and its frames, handed to the caller once (the run keeps no more of it)."""
        pulled = self.pulled[seq]
        if pulled is None:
            raise LookupError(f"event {seq} of the re-executed run was already taken")
        self.pulled[seq] = None
        return pulled

    def _drive(self) -> None:
        try:
            if self._entry == "invoke":
                self.executor.invoke(self.inputs, [self._hand_over])
            else:  # a recording made under ainvoke or by pulling iter_events: its stacks start there
                drain_events(self.executor.iter_events(self.inputs), [self._hand_over])
            outcome = "the run finished"
        except (_Stopped, CallsStopped):
            outcome = "the run was stopped"
        except Exception as error:  # the recording ended in chain_error: the re-run raises it again
            outcome = f"the run raised {type(error).__name__}: {error}"
        forget_kept_reprs()
        with self._changed:
            self.outcome = outcome
            self._changed.notify_all()

    def _hand_over(self, event: Any) -> None:
        # Called by invoke (or drain_events) with the generator chain paused at its yield, as LiveRun's is.
        caller = sys._getframe(1)
        while caller.f_back is not None and "events" not in caller.f_locals:  # a listener wrapping this one
            caller = caller.f_back
        outermost = caller if caller.f_code.co_name == "invoke" else None  # the user's call, when they made it
        frames = capture_frames(caller.f_locals.get("events"), outermost)
        with self._changed:
            if self._closing:
                raise _Stopped
            self.pulled.append((cast(Event, event), frames))
            if len(self.pulled) >= self._wanted:  # as far as asked: wait here until more is
                self._changed.notify_all()
                while len(self.pulled) >= self._wanted and not self._closing:
                    self._changed.wait()
                if self._closing:
                    raise _Stopped
        self.calls.handed(event)  # a parallel call that emitted it may go on

    def close(self) -> None:
        """Stop the run where it waits (its thread ends)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self.calls.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
