"""The retry loop: run an attempt until it succeeds, narrating each failed attempt as a retry event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ..awaiting import Narrated, T, pause
from ..events import RetryEvent
from ..run_context import RunContext
from .retry import RetriesExhausted, RetryPolicy, describe_error


def with_retries(
    run: RunContext,
    policy: RetryPolicy | None,
    target: Literal["llm", "tool"],
    name: str,
    attempt: Callable[[], Narrated[T]],
) -> Narrated[T]:
    """Run `attempt()` (a generator) until it succeeds, the error is not retryable, or the policy gives up.

    LangChain: Runnable.with_retry, but each failed attempt is yielded as a `retry` event
    before the wait, and the wait goes through the run's clock (instant in tests and replays).
    """
    if policy is None:
        return (yield from attempt())
    number = 1
    while True:
        try:
            return (yield from attempt())
        except Exception as error:
            if not policy.should_retry(error):
                raise
            if number > policy.max_retries:
                raise RetriesExhausted(target, name, number, error) from error
            delay = round(policy.delay_for(number, error), 6)
            yield run.emit(RetryEvent, target=target, name=name, attempt=number, error=describe_error(error),
                           delay=delay)  # fmt: skip
            yield from pause(run, delay)  # under ainvoke, other tasks run meanwhile
            number += 1
