"""A burst of model calls against a token-bucket rate limiter, and an endpoint that answers HTTP 429."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from executor import ChatModel, ModelReply, RateLimiter, RetryPolicy
from executor.clock import Clock

from .flower_shop import (
    ANSWER,
    CALCULATOR_REPLY,
    QUESTION,
    final_answer,
    search_and_calculator,
    thought,
)
from .scenario import Scenario

MAX_QPS = 0.5  # one model call every 2 seconds on average
BURST = 2  # but the first two may go at once
REFUSED_ATTEMPTS = (2, 3)  # the endpoint's answer to the 2nd and 3rd attempts overall: 429


class TooManyRequests(Exception):
    """What an API says when a key has used up its quota for now: HTTP 429."""

    status_code = 429


class OverloadedEndpoint:
    """The scripted model behind a gateway that refuses some attempts with HTTP 429.

    Attempts are counted across all calls, so the refusals land on the same calls every run.
    """

    def __init__(self, model: ChatModel, refused: Sequence[int] = REFUSED_ATTEMPTS) -> None:
        self.model = model
        self.model_name = model.model_name
        self.refused = set(refused)
        self.attempts = 0

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        self.attempts += 1
        if self.attempts in self.refused:
            raise TooManyRequests("HTTP 429 Too Many Requests: rate limit reached for requests per minute")
        return self.model.generate(prompt, stop)


def pacing(clock: Clock) -> dict[str, Any]:
    """A limiter on the run's clock and a retry policy whose jitter repeats: new for every run."""
    return {
        "rate_limiter": RateLimiter(max_qps=MAX_QPS, burst=BURST, clock=clock),
        "retry_policy": RetryPolicy(
            max_retries=3,
            initial_delay=1.0,
            backoff_factor=2.0,
            max_delay=8.0,
            jitter=True,
            rng=random.Random(429).random,
        ),
    }


SCENARIO = Scenario(
    name="rate-limit",
    title="Rate limit: token-bucket waits and an HTTP 429 retried with backoff",
    question=QUESTION,
    build_tools=search_and_calculator,
    replies=[
        thought(
            "I need today's wholesale price of red roses first.", "Search", "wholesale price red roses bunch of 20"
        ),
        thought("Roses cost 25-30 yuan a bunch. I will take 25 yuan and add 5%.", "Calculator", "25 * 1.05"),
        CALCULATOR_REPLY,
        final_answer("I now know the final answer.", ANSWER),
    ],
    per_run_settings=pacing,
    scripted_endpoint=OverloadedEndpoint,
)
