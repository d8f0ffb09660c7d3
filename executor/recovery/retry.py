"""Retrying model calls and tools: one RetryPolicy, and a generator that narrates each retry.

Why tenacity computes the backoff but does not run the loop: tenacity's `Retrying` owns the
loop, and between two attempts it decides and sleeps inside its own iteration; its hooks
(`before_sleep`, a swapped-in `sleep`) are plain callbacks, which cannot `yield` an event out
of the executor's generator chain before the wait. Its jittered waits draw from the module-level
`random`, so they could not be made repeatable for tests and replays either. So the control loop
below is ours (it is short, and it is part of the lesson), while the exponential formula is
tenacity's `wait_exponential`, which also applies the cap and survives exponents that would
overflow a float.
"""

from __future__ import annotations

import builtins
import email.utils
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tenacity import RetryCallState, wait_exponential

Condition = type[BaseException] | int | str  # an exception type, an HTTP status code or an error substring
RETRYABLE_STATUS = (408, 429, 500, 502, 503, 504)


class TransientError(Exception):
    """Raised by a model provider or a tool for a failure that is worth trying again."""


class RetriesExhausted(Exception):
    """Every allowed attempt failed with a retryable error; `last_error` is the final one."""

    def __init__(self, target: str, name: str, attempts: int, last_error: BaseException) -> None:
        super().__init__(f"{target} {name!r} failed after {attempts} attempts: {describe_error(last_error)}")
        self.target, self.name, self.attempts, self.last_error = target, name, attempts, last_error


def describe_error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def status_code_of(error: BaseException) -> int | None:
    """The HTTP status an error carries (`status_code`, or its `response.status_code`), if any."""
    status = getattr(error, "status_code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def retry_after_of(error: BaseException, now: Callable[[], float] = time.time) -> float | None:
    """Seconds the server asked us to wait: an error's `retry_after`, or its response's
    Retry-After header (seconds or an HTTP date); None when the server did not say."""
    seconds = getattr(error, "retry_after", None)
    if isinstance(seconds, (int, float)):
        return max(0.0, float(seconds))
    headers = getattr(getattr(error, "response", None), "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    return parse_retry_after(value, now) if value is not None else None


def parse_retry_after(value: str, now: Callable[[], float] = time.time) -> float | None:
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass  # not seconds: it may be an HTTP date, tried next
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now())


def _matches(error: BaseException, conditions: tuple[Condition, ...]) -> bool:
    status = status_code_of(error)
    text = str(error).lower()
    for condition in conditions:
        if isinstance(condition, type):
            if isinstance(error, condition):
                return True
        elif isinstance(condition, int):
            if status == condition:
                return True
        elif condition.lower() in text:
            return True
    return False


@dataclass(frozen=True)
class RetryPolicy:
    """When to try again and how long to wait first.

    Attempt n (1-based) that fails waits `initial_delay * backoff_factor ** (n - 1)`, capped
    at `max_delay`; with jitter the wait is drawn uniformly from [half of that, all of it]
    ("equal jitter") using `rng`, so a seeded `random.Random(...).random` makes it repeatable.
    A server's Retry-After replaces the formula (still capped at `max_delay`, so a confused
    server cannot park the run for hours). `never_retry` wins over `retry_on`.
    `on_failure` matters for tools only: "continue" turns the final error of a retryable
    failure into the observation; a model call that gives up always raises.
    """

    max_retries: int = 6  # 6 retries means up to 7 calls
    initial_delay: float = 1.0
    backoff_factor: float = 2.0
    max_delay: float = 60.0
    jitter: bool = True
    retry_on: tuple[Condition, ...] = (TransientError, ConnectionError, TimeoutError, *RETRYABLE_STATUS)
    never_retry: tuple[Condition, ...] = (PermissionError, 401, 403)
    on_failure: Literal["continue", "error"] = "error"
    honour_retry_after: bool = True
    rng: Callable[[], float] = random.random

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, got {self.max_retries}")
        if self.initial_delay < 0 or self.max_delay < 0:
            raise ValueError("initial_delay and max_delay must not be negative")
        if self.backoff_factor < 1:
            raise ValueError(f"backoff_factor must be at least 1, got {self.backoff_factor}")
        if self.on_failure not in ("continue", "error"):
            raise ValueError(f"on_failure must be 'continue' or 'error', got {self.on_failure!r}")
        for condition in (*self.retry_on, *self.never_retry):
            if not (
                isinstance(condition, (int, str))
                or (isinstance(condition, type) and issubclass(condition, BaseException))
            ):
                raise ValueError(
                    f"retry conditions are exception types, HTTP status codes or error substrings; got {condition!r}"
                )

    def should_retry(self, error: BaseException) -> bool:
        if isinstance(error, RetriesExhausted):  # an inner loop already gave up: do not multiply attempts
            return False
        return not _matches(error, self.never_retry) and _matches(error, self.retry_on)

    def backoff(self, attempt: int) -> float:
        """The formula's delay after failed attempt `attempt` (no jitter, no Retry-After)."""
        state = RetryCallState(retry_object=None, fn=None, args=(), kwargs={})  # type: ignore[arg-type]
        state.attempt_number = attempt
        formula = wait_exponential(multiplier=self.initial_delay, exp_base=self.backoff_factor, max=self.max_delay)
        return float(formula(state))

    def delay_for(self, attempt: int, error: BaseException | None = None) -> float:
        """How long to wait after failed attempt `attempt` before trying again."""
        server_says = retry_after_of(error) if (error is not None and self.honour_retry_after) else None
        if server_says is not None:
            return min(server_says, self.max_delay)
        delay = self.backoff(attempt)
        if self.jitter:
            delay = delay / 2 + self.rng() * delay / 2
        return delay

    def describe(self) -> dict[str, Any]:
        """A JSON-friendly summary, e.g. for a trace header."""
        return {
            "max_retries": self.max_retries,
            "initial_delay": self.initial_delay,
            "backoff_factor": self.backoff_factor,
            "max_delay": self.max_delay,
            "jitter": self.jitter,
            "on_failure": self.on_failure,
            "retry_on": [_condition_name(c) for c in self.retry_on],
            "never_retry": [_condition_name(c) for c in self.never_retry],
        }

    @classmethod
    def from_description(cls, described: Mapping[str, Any]) -> RetryPolicy:
        """Rebuild a policy from `describe()` (e.g. a trace header) to re-execute a recording under it.

        Numbers and status/substring conditions come back as they were; exception types come
        back by name when they are builtins or TransientError (others cannot be imported here
        and are left out). Jitter is off: a replay's waits are not real anyway.
        """
        numbers = {
            key: described[key]
            for key in ("max_retries", "initial_delay", "backoff_factor", "max_delay", "on_failure")
            if key in described
        }
        return cls(
            jitter=False,
            **numbers,
            retry_on=_conditions(described.get("retry_on"), cls.retry_on),
            never_retry=_conditions(described.get("never_retry"), cls.never_retry),
        )


def _condition_name(condition: Condition) -> str | int | dict[str, str]:
    # A type by its name, a status code as is, a substring marked so it is not taken for a type name.
    if isinstance(condition, type):
        return condition.__name__
    return condition if isinstance(condition, int) else {"contains": condition}


def _conditions(names: Any, default: tuple[Condition, ...]) -> tuple[Condition, ...]:
    if not isinstance(names, (list, tuple)):
        return default
    known = {"TransientError": TransientError}
    rebuilt: list[Condition] = []
    for name in names:
        if isinstance(name, int):
            rebuilt.append(name)
        elif isinstance(name, dict) and isinstance(name.get("contains"), str):
            rebuilt.append(name["contains"])
        elif isinstance(name, str):
            found = known.get(name, getattr(builtins, name, None))
            if isinstance(found, type) and issubclass(found, BaseException):
                rebuilt.append(found)
    return tuple(rebuilt)
