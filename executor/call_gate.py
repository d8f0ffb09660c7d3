"""What a debugger or a replay may plug in to pace a reply's concurrent tool calls (the executor runs them freely without)."""

from __future__ import annotations

from typing import Protocol

from .events import EventBase


class ToolCallGate(Protocol):
    """Hooks the worker threads of parallel tool calls pass through; each may block to hold its call.

    The loop hands events out one at a time, but concurrent calls run on their own threads and
    would run ahead of whoever reads the events. A gate lets the reader hold them: a debugger
    keeps a call from running past an event the learner has not stepped past (and steps into
    that call's function on its own thread), a replay makes the calls emit in the recorded order.
    The driver plugs one into an executor with loop_hooks.use_tool_call_gate.
    """

    def before_event(self, call_id: str) -> None:
        """On the call's worker thread, before it emits an event: return when it may."""

    def after_event(self, event: EventBase) -> None:
        """On the call's worker thread, after it emitted `event`: return when the call may run on."""

    def call_done(self, call_id: str) -> None:
        """The call has returned or raised, and the loop has been told (after its last event)."""
