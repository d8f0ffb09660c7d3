"""Injectable time sources: the real clock for live runs, a manual one for tests and replays."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...
    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """Real time: what a live run uses."""

    # The C function itself, not a method wrapping it: every event reads the clock.
    monotonic = staticmethod(time.monotonic)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """Time that only moves when told to: sleeping advances it instantly, so tests never wait."""

    def __init__(self, start: float = 0.0, tick: float = 0.0) -> None:
        self.now = start
        self.tick = tick  # added on every read, so durations are non-zero but deterministic
        self.slept: list[float] = []

    def monotonic(self) -> float:
        self.now += self.tick
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(0.0, seconds)

    def advance(self, seconds: float) -> None:
        self.now += seconds
