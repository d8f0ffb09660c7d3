"""A thread-safe token bucket that paces model calls to at most max_qps, with a small burst allowance."""

from __future__ import annotations

import threading

from ..clock import Clock, SystemClock


class RateLimiter:
    """Token bucket: `burst` tokens to start with, refilled at `max_qps` tokens per second.

    `acquire()` never refuses: it takes a token, going into debt if the bucket is empty, and
    sleeps (on the injected clock) until that debt is paid off. Taking the token under the
    lock but sleeping outside it is what keeps many threads exactly in step: the k-th waiter
    is told to wait k/max_qps, and nobody holds the lock while asleep. Give it the same clock
    as the executor so a test's ManualClock drives both.
    LangChain: InMemoryRateLimiter, which is also a token bucket but polls while it waits.
    """

    def __init__(self, max_qps: float, burst: int = 1, clock: Clock | None = None) -> None:
        if not max_qps > 0:
            raise ValueError(f"max_qps must be positive, got {max_qps}")
        if burst < 1:
            raise ValueError(f"burst must be at least 1, got {burst}")
        self.max_qps = float(max_qps)
        self.burst = int(burst)
        self.clock = clock or SystemClock()
        self._lock = threading.Lock()
        self._tokens = float(burst)
        self._updated = self.clock.monotonic()

    def _refill(self) -> None:
        # Caller holds the lock. Tokens accrue for the time passed, up to the burst capacity.
        now = self.clock.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._updated) * self.max_qps)
        self._updated = now

    def try_acquire(self) -> bool:
        """Take a token if one is there right now; never waits."""
        with self._lock:
            self._refill()
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            return False

    def reserve(self) -> float:
        """Take a token now, possibly on credit; return how long the caller must wait to use it."""
        with self._lock:
            self._refill()
            self._tokens -= 1.0
            return 0.0 if self._tokens >= 0.0 else -self._tokens / self.max_qps

    def acquire(self) -> float:
        """Wait until a call is allowed; return the seconds waited (0.0 when a token was free)."""
        wait = self.reserve()
        if wait > 0:
            self.clock.sleep(wait)
        return wait

    def describe(self) -> dict[str, float]:
        return {"max_qps": self.max_qps, "burst": self.burst}
