"""The debugger's gate for a reply's parallel tool calls: each call waits at its events until the debugger has passed them."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

# How long a call waits for the recorded order before it gives up on it (the re-run then differs from the
# recording, which the re-enactment reports at that event): a recorded turn comes within microseconds.
PATIENCE = 2.0


class CallsStopped(BaseException):
    """Raised in a held call's thread when the debugger closes the run (not an Exception: nothing catches it)."""


def recorded_call_order(events: Sequence[Any]) -> list[tuple[str, bool]]:
    """(call id, whether it is that call's last event in its stretch) for each event a parallel call
    emitted, in recorded order: the turns a re-execution's calls take. A stretch is a run of events
    from inside perform_tool_calls, one reply's calls."""
    order: list[tuple[str, bool]] = []
    stretch: list[str] = []
    for event in [*events, None]:
        if event is not None and "perform_tool_calls" in event.frames and event.tool_call_id is not None:
            stretch.append(event.tool_call_id)
            continue
        order += [(call, call not in stretch[i + 1 :]) for i, call in enumerate(stretch)]
        stretch = []
    return order


class PacedCalls:
    """An executor's tool_call_gate for a live or re-executed run in the debugger.

    One call's event is in flight at a time: a call emits, then waits in after_event until the
    debugger has passed that event (`handed`), so no call runs ahead of what the learner has
    seen, and a call about to be stepped into has not started its function yet. Re-executing a
    recording, the calls also emit in the recorded order (`order`), and after a call's last
    event the next waits until it has returned: the loop's locals (its futures, how many calls
    are running) are then the same at every event, run after run.

    on_release(event): on the call's thread once `event` was passed (where a step-into installs
    its tracer). on_rest(call_id): on the call's thread when it comes to its next event or ends.
    """

    def __init__(self, order: Sequence[tuple[str, bool]] | None = None, patience: float = PATIENCE) -> None:
        self._turns = threading.Condition()
        self._order: deque[tuple[str, bool]] | None = deque(order) if order else None
        self._in_flight = False
        self._handed = -1  # the newest seq the debugger has passed
        self._finishing: str | None = None  # a call past its last recorded event: the next waits for it to end
        self._closed = False
        self.patience = patience
        self.on_release: Callable[[Any], None] | None = None
        self.on_rest: Callable[[str], None] | None = None

    def before_event(self, call_id: str) -> None:
        if self.on_rest is not None:
            self.on_rest(call_id)
        with self._turns:
            if self._finishing == call_id:  # it emits again after all (the re-run differs): not waited for
                self._finishing = None
            deadline: float | None = None  # counted from when no other call's event is in flight
            while self._in_flight or not self._in_order(call_id):
                self._check_open()
                if self._in_flight:
                    deadline = None
                    self._turns.wait(0.05)
                    continue
                now = time.monotonic()
                deadline = deadline or now + self.patience
                if now >= deadline:
                    self._order, self._finishing = None, None  # the re-run left the recorded order
                    break
                self._turns.wait(min(0.05, deadline - now))
            self._in_flight = True
            if self._order:
                _call, last = self._order.popleft()
                self._finishing = call_id if last else None

    def _in_order(self, call_id: str) -> bool:
        if self._finishing is not None:
            return False
        return not self._order or self._order[0][0] == call_id

    def after_event(self, event: Any) -> None:
        with self._turns:
            while self._handed < event.seq:
                self._check_open()
                self._turns.wait(0.05)
            self._in_flight = False
            self._turns.notify_all()
        if self.on_release is not None:
            self.on_release(event)

    def call_done(self, call_id: str) -> None:
        if self.on_rest is not None:
            self.on_rest(call_id)
        with self._turns:
            if self._finishing == call_id:
                self._finishing = None
            self._turns.notify_all()

    def handed(self, event: Any) -> None:
        """The debugger has passed `event` (any event of the run): the call that emitted it may go on."""
        with self._turns:
            self._handed = max(self._handed, event.seq)
            self._turns.notify_all()

    def close(self) -> None:
        """The run is being stopped: every held call raises CallsStopped."""
        with self._turns:
            self._closed = True
            self._turns.notify_all()

    def _check_open(self) -> None:
        if self._closed:
            raise CallsStopped
