"""A circuit breaker per model endpoint, shared by every run in the process, narrated as breaker_* events."""

# closed --(K failures within `window` s)--> open --(`cool_down` s later, a call comes)--> half_open
# half_open --(the trial call succeeds)--> closed;  half_open --(it fails)--> open again.
# While open, a call is refused at once (CircuitOpenError, never sent), which a FallbackModel answers.
# A retry is for a failure that lasts a moment; a breaker is for an endpoint that is down: it stops
# every run in the process from spending its retries (and the endpoint's patience) on it.

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from ..awaiting import Narrated
from ..callee import model_callee
from ..clock import Clock, SystemClock
from ..events import BreakerClosedEvent, BreakerHalfOpenEvent, BreakerOpenEvent, CalleeRef
from ..models.chat_model import ChatModel, ModelReply, ToolCallingModel, _paced_generate
from ..models.messages import ChatRequest, Message
from ..models.providers.errors import ProviderUnreachable
from ..run_context import RunContext
from .retry import RETRYABLE_STATUS, TransientError, describe_error, status_code_of
from .retry_loop import with_retries

BreakerState = Literal["closed", "open", "half_open"]


def is_endpoint_failure(error: BaseException) -> bool:
    """Does this error say the endpoint is unwell? (429, 5xx, timeouts, dropped connections: yes;
    a refused key or a bad request: no, those are ours to fix and say nothing about its health.
    A refused connection is not retried, but it does say the endpoint is down.)"""
    return (
        isinstance(error, (TransientError, ConnectionError, TimeoutError, ProviderUnreachable))
        or status_code_of(error) in RETRYABLE_STATUS
    )


class CircuitOpenError(Exception):
    """The breaker for `endpoint` is open. `refused`: the call was never sent (False: this call's
    failure is the one that opened it). Not retryable: retrying is what the breaker prevents."""

    def __init__(
        self, endpoint: str, model: str, retry_in: float, refused: bool = True, last_error: str | None = None
    ) -> None:
        self.endpoint, self.model, self.retry_in, self.refused = endpoint, model, retry_in, refused
        what = "refused" if refused else "opened by this failure"
        last = f"; last failure: {last_error}" if last_error else ""
        super().__init__(
            f"circuit breaker for {endpoint} is open ({what}); {model!r} is not called again for {retry_in:g}s{last}"
        )


class CircuitBreaker:
    """The state machine. Thread-safe: runs in several threads share one breaker per endpoint.

    Times are readings of a clock: `clock` when given, else the calling run's clock.
    """

    def __init__(
        self,
        endpoint: str,
        failure_threshold: int = 3,
        window: float = 60.0,
        cool_down: float = 30.0,
        counts: Callable[[BaseException], bool] = is_endpoint_failure,
        clock: Clock | None = None,
    ) -> None:
        if failure_threshold < 1:
            raise ValueError(f"failure_threshold must be at least 1, got {failure_threshold}")
        if window <= 0 or cool_down < 0:
            raise ValueError("window must be positive and cool_down must not be negative")
        self.endpoint, self.failure_threshold = endpoint, failure_threshold
        self.window, self.cool_down, self.counts, self.clock = window, cool_down, counts, clock
        self.state: BreakerState = "closed"
        self.opened_at: float | None = None
        self._failures: deque[float] = deque()
        self._trial_running = False
        self._restore: tuple[float | None, int] | None = None  # see restored()
        self._lock = threading.Lock()

    def admit(self, now: float, model: str) -> float | None:
        """Let a call through, or raise CircuitOpenError. Returns how long the breaker had been
        open when this call moved it to half-open (the trial call), else None."""
        with self._lock:
            self._settle(now)
            if self.state == "closed":
                return None
            assert self.opened_at is not None
            open_for = now - self.opened_at
            if self.state == "open" and open_for >= self.cool_down:
                self.state, self._trial_running = "half_open", True
                return open_for
            if self.state == "half_open" and not self._trial_running:
                self._trial_running = True  # an earlier trial ended without a verdict (e.g. HTTP 400)
                return None
            raise CircuitOpenError(self.endpoint, model, max(0.0, round(self.cool_down - open_for, 6)))

    def record_success(self) -> bool:
        """A call succeeded; True when that closed the breaker (the trial call)."""
        with self._lock:
            self._failures.clear()
            self._trial_running = False
            if self.state == "half_open":
                self.state, self.opened_at = "closed", None
                return True
            return False

    def record_failure(self, now: float, error: BaseException) -> tuple[BreakerState, int] | None:
        """A call failed; (the state it opened from, failures counted) when that opened the breaker."""
        with self._lock:
            self._settle(now)
            self._trial_running = False
            if not self.counts(error):
                return None
            if self.state == "half_open":
                self.state, self.opened_at = "open", now
                return "half_open", 1
            self._failures.append(now)
            while self._failures and now - self._failures[0] > self.window:
                self._failures.popleft()
            if self.state == "closed" and len(self._failures) >= self.failure_threshold:
                counted = len(self._failures)
                self.state, self.opened_at = "open", now
                self._failures.clear()
                return "closed", counted
            return None

    def settings(self) -> dict[str, Any]:
        return {"failure_threshold": self.failure_threshold, "window": self.window, "cool_down": self.cool_down}

    def snapshot(self, now: float) -> dict[str, Any]:
        """The state at `now` (a reading of the run's clock), as a replay needs it to start from the same
        place: a breaker shared across runs may already be open when a run begins."""
        with self._lock:
            self._settle(now)
            recent = sum(1 for t in self._failures if now - t <= self.window)
            open_for = None if self.opened_at is None else round(now - self.opened_at, 6)
            return {
                "endpoint": self.endpoint,
                "state": self.state,
                "recent_failures": recent,
                "open_for": open_for,
                **self.settings(),
            }

    @classmethod
    def restored(cls, snapshot: dict[str, Any], clock: Clock | None = None) -> CircuitBreaker:
        """A new breaker in the state `snapshot()` recorded (for re-executing a recording)."""
        breaker = cls(
            str(snapshot["endpoint"]),
            int(snapshot["failure_threshold"]),
            float(snapshot["window"]),
            float(snapshot["cool_down"]),
            clock=clock,
        )
        breaker.state = snapshot.get("state", "closed")
        # Times are settled at the breaker's first clock reading (chain_start's snapshot, in a re-run),
        # so they come out as recorded whatever the replay clock read before.
        open_for = snapshot.get("open_for")
        breaker._restore = (None if open_for is None else float(open_for), int(snapshot.get("recent_failures", 0)))
        return breaker

    def _settle(self, now: float) -> None:
        if self._restore is not None:
            open_for, recent = self._restore
            self._restore = None
            self.opened_at = None if open_for is None else now - open_for
            self._failures.extend([now] * recent)


_BREAKERS: dict[str, CircuitBreaker] = {}
_REGISTRY_LOCK = threading.Lock()


def breaker_for(endpoint: str, **settings: Any) -> CircuitBreaker:
    """The process's breaker for `endpoint`, made with `settings` on first use (later settings are ignored:
    one endpoint has one breaker, whoever asks)."""
    with _REGISTRY_LOCK:
        breaker = _BREAKERS.get(endpoint)
        if breaker is None:
            breaker = _BREAKERS[endpoint] = CircuitBreaker(endpoint, **settings)
        return breaker


def breakers() -> dict[str, CircuitBreaker]:
    """Every breaker in the process, by endpoint (e.g. to show their states)."""
    with _REGISTRY_LOCK:
        return dict(_BREAKERS)


def reset_breakers() -> None:
    """Forget every breaker (tests, and a replay that must start from closed breakers)."""
    with _REGISTRY_LOCK:
        _BREAKERS.clear()


def endpoint_of(model: ChatModel) -> str:
    """What a model's breaker is keyed by: its endpoint URL when it has one, else its name."""
    return str(getattr(model, "endpoint", None) or model.model_name)


class CircuitBreakerModel:
    """A ChatModel whose every attempt goes through a breaker; the transitions are events of the run."""

    def __init__(self, model: ChatModel, breaker: CircuitBreaker) -> None:
        if getattr(model, "narrated_generate", None) is not None:
            raise TypeError(
                "put the breaker around each model, then chain them: with_fallbacks(with_breaker(a), [with_breaker(b)])"
            )
        self.model, self.breaker = model, breaker
        self.model_name = model.model_name
        self.endpoint = endpoint_of(model)

    @property
    def live(self) -> bool:  # retried by default exactly when the model behind it would be
        return getattr(self.model, "live", False) is True

    @property
    def callee(self) -> CalleeRef | None:  # llm events point at the guarded model's code, not at this wrapper
        return model_callee(self.model)

    def __repr__(self) -> str:
        return f"CircuitBreakerModel({self.model!r}, state={self.breaker.state!r})"

    def describe(self, now: float) -> dict[str, Any]:
        """The model and its breaker's state (chain_start records it under settings["model_chain"])."""
        return {
            "model": self.model_name,
            "breaker": self.breaker.snapshot(self.breaker.clock.monotonic() if self.breaker.clock else now),
        }

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        """Outside a run (a wrapper calling .generate): the same breaker, nothing narrated, times from
        the breaker's clock or the system's (so do not mix with runs on a ManualClock)."""
        return self._guarded(lambda: self.model.generate(prompt, stop))

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling request outside a run, through the same breaker."""
        model = cast(ToolCallingModel, self.model)  # asked this, it guards a tool-calling agent's model
        return self._guarded(lambda: model.generate_messages(messages, tools, tool_choice, parallel_tool_calls))

    def _guarded(self, ask: Callable[[], ModelReply]) -> ModelReply:
        breaker = self.breaker
        clock = breaker.clock or SystemClock()
        breaker.admit(clock.monotonic(), self.model_name)
        try:
            reply = ask()
        except Exception as error:
            if breaker.record_failure(clock.monotonic(), error) is None:
                raise
            raise CircuitOpenError(
                breaker.endpoint, self.model_name, breaker.cool_down, refused=False, last_error=describe_error(error)
            ) from error
        breaker.record_success()
        return reply

    def narrated_generate(
        self, run: RunContext, prompt: str | ChatRequest, stop: Sequence[str]
    ) -> Narrated[ModelReply]:
        # LangChain has no breaker; this sits where Runnable.with_retry would, one level inside it.
        return (
            yield from with_retries(
                run, run.retry_policy, "llm", self.model_name, lambda: self._attempt(run, prompt, stop)
            )
        )

    def _attempt(self, run: RunContext, prompt: str | ChatRequest, stop: Sequence[str]) -> Narrated[ModelReply]:
        breaker, clock = self.breaker, self.breaker.clock or run.clock
        open_for = breaker.admit(clock.monotonic(), self.model_name)
        if open_for is not None:
            yield run.emit(BreakerHalfOpenEvent, endpoint=breaker.endpoint, model=self.model_name,
                           open_for=round(open_for, 6))  # fmt: skip
        try:
            reply = yield from _paced_generate(run, self.model, prompt, stop)
        except Exception as error:
            opened = breaker.record_failure(clock.monotonic(), error)
            if opened is None:
                raise
            from_state, counted = opened
            yield run.emit(BreakerOpenEvent, endpoint=breaker.endpoint, model=self.model_name, failures=counted,
                           window=breaker.window, cool_down=breaker.cool_down, error=describe_error(error),
                           from_state=from_state)  # fmt: skip
            raise CircuitOpenError(
                breaker.endpoint, self.model_name, breaker.cool_down, refused=False, last_error=describe_error(error)
            ) from error
        if breaker.record_success():
            yield run.emit(BreakerClosedEvent, endpoint=breaker.endpoint, model=self.model_name)
        return reply


def with_breaker(model: ChatModel, breaker: CircuitBreaker | None = None, **settings: Any) -> CircuitBreakerModel:
    """`model` behind the process's breaker for its endpoint (or behind `breaker`)."""
    return CircuitBreakerModel(model, breaker or breaker_for(endpoint_of(model), **settings))
