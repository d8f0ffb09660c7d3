"""Each model's circuit-breaker state at any point of a run, from chain_start's model_chain and the breaker events."""

from __future__ import annotations

import bisect
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from executor.events import BreakerClosedEvent, BreakerHalfOpenEvent, BreakerOpenEvent, Event, EventBase

STATE_OF_KIND = {"breaker_open": "open", "breaker_half_open": "half_open", "breaker_closed": "closed"}
BREAKER_EVENTS = (BreakerOpenEvent, BreakerHalfOpenEvent, BreakerClosedEvent)


class Store(Protocol):  # what of an EventStore this needs
    def __len__(self) -> int: ...
    def event(self, position: int) -> Event: ...
    def raw_line(self, position: int) -> bytes: ...


def initial_states(chain_start: EventBase) -> dict[str, str]:
    """model -> breaker state when the run began; {} when no model had a breaker."""
    settings = getattr(chain_start, "settings", None) or {}
    chain: Any = settings.get("model_chain") or {}
    links = chain.get("chain", [chain]) if isinstance(chain, dict) else []
    return {
        str(link["model"]): str(link["breaker"].get("state", "closed"))
        for link in links
        if isinstance(link, dict) and isinstance(link.get("breaker"), dict) and "model" in link
    }


class BreakerTimeline:
    """The state changes of a trace's breakers, found once (a live run's as it grows)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.initial: dict[str, str] | None = None  # read from the first event once there is one (live runs)
        self._positions: list[int] = []
        self._changes: list[tuple[str, str]] = []  # (model, state) at each of _positions
        self._scanned = 0

    def _scan(self) -> None:
        total = len(self.store)
        for position in range(self._scanned, total):
            if b'"breaker_' not in self.store.raw_line(position):  # cheap: most events are not looked at
                continue
            event = self.store.event(position)
            if isinstance(event, BREAKER_EVENTS):
                self._positions.append(position)
                self._changes.append((event.model, STATE_OF_KIND[event.kind]))
        self._scanned = total

    def at(self, position: int) -> dict[str, str]:
        """model -> state just after the event at `position` ({} for a run without breakers)."""
        if self.initial is None and len(self.store):
            first = self.store.event(0)
            self.initial = initial_states(first) if first.kind == "chain_start" else {}
        if not self.initial:
            return {}
        self._scan()
        states = dict(self.initial)
        for model, state in self._changes[: bisect.bisect_right(self._positions, position)]:
            states[model] = state
        return states


_TIMELINES: WeakKeyDictionary[Any, BreakerTimeline] = WeakKeyDictionary()


def breaker_states_at(store: Store, position: int) -> dict[str, str]:
    """Each model's breaker state just after event `position` of `store`."""
    timeline = _TIMELINES.get(store)
    if timeline is None:
        timeline = _TIMELINES[store] = BreakerTimeline(store)
    return timeline.at(position)
