"""A circuit breaker that decides as the recording did, for replaying runs whose breakers ran on the real clock."""

# A breaker's decisions depend on time: open for how long, failures within which window. A run
# recorded on a manual clock replays on the same manual clock, so the real state machine decides
# again (and a change to it is caught). A live run's breakers read the system clock; no replay
# clock can make the same readings, so there each decision is taken from the recording instead.

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from executor.events import Event
from executor.recovery.circuit_breaker import BreakerState, CircuitBreaker, CircuitOpenError

from .model_calls import BreakerDecision, breaker_decisions


class RecordedBreaker(CircuitBreaker):
    """Admits, refuses, opens and closes exactly where the recording says, whatever the clock reads."""

    def __init__(self, snapshot: dict[str, Any], decisions: Sequence[BreakerDecision]) -> None:
        super().__init__(
            str(snapshot["endpoint"]),
            failure_threshold=int(snapshot["failure_threshold"]),
            window=float(snapshot["window"]),
            cool_down=float(snapshot["cool_down"]),
        )
        self.state = snapshot.get("state", "closed")
        self._snapshot = dict(snapshot)
        self._decisions = deque(decisions)
        self._current: BreakerDecision | None = None

    def snapshot(self, now: float) -> dict[str, Any]:
        return dict(self._snapshot)  # chain_start records what the recording's chain_start did

    def admit(self, now: float, model: str) -> float | None:
        # Past the end of the recording: let the call through, and the replayed model reports the divergence.
        decision = self._current = self._decisions.popleft() if self._decisions else BreakerDecision("pass")
        if decision.kind == "refuse":
            raise CircuitOpenError(self.endpoint, model, decision.value or 0.0)
        if decision.kind == "trial":
            self.state = "half_open"
            return decision.value
        return None

    def record_failure(self, now: float, error: BaseException) -> tuple[BreakerState, int] | None:
        opened = self._current.opened if self._current is not None else None
        if opened is None:
            return None
        self.state = "open"
        return opened[0], opened[1]  # type: ignore[return-value]

    def record_success(self) -> bool:
        closed = self._current is not None and self._current.closed
        if closed:
            self.state = "closed"
        return closed


def use_recorded_breakers(model: Any, events: Sequence[Event]) -> Any:
    """`model` (a restored chain) with every breaker swapped for one that decides as recorded."""
    decisions = breaker_decisions(events)
    links = getattr(model, "models", (model,))
    for link in links:
        breaker = getattr(link, "breaker", None)
        if isinstance(breaker, CircuitBreaker):
            snapshot = {
                **breaker.settings(),
                "endpoint": breaker.endpoint,
                "state": breaker.state,
                **_recorded_snapshot(events, link.model_name),
            }
            link.breaker = RecordedBreaker(snapshot, decisions.get(link.model_name, []))
    return model


def _recorded_snapshot(events: Sequence[Event], model_name: str) -> dict[str, Any]:
    first = events[0]  # the chain_start that named the model chain
    chain: Any = (first.settings.get("model_chain") if first.kind == "chain_start" else None) or {}
    for link in chain.get("chain", [chain]):
        if link.get("model") == model_name and isinstance(link.get("breaker"), dict):
            return dict(link["breaker"])
    return {}
