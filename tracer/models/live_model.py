"""A live model made ready for a run (its retry policy, limiter and secrets), and a clock that skips waits."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from executor import ChatModel, RateLimiter, RetryPolicy
from executor.clock import Clock
from executor.models.config import (
    ENV_MODEL,
    ModelConfigError,
    load_model_config,
    url_credentials,
)
from executor.models.credentials import MIN_HIDDEN_LENGTH
from executor.models.model_list import ENV_MODELS, ModelList, entry_config, load_model_list
from executor.models.providers import create_model
from executor.recovery.circuit_breaker import with_breaker
from executor.recovery.fallbacks import with_fallbacks

from ..trace.redact import Redactor, default_redactor


@dataclass(frozen=True)
class LiveModel:
    """A model ready for a live run, with the retry policy and rate limiter that go with it."""

    spec: str
    model: ChatModel
    retry_policy: RetryPolicy
    rate_limiter: RateLimiter | None
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    warnings: tuple[str, ...] = ()  # one line each, about the model list (the run goes on regardless)

    def executor_options(self) -> dict[str, Any]:
        return {"retry_policy": self.retry_policy, "rate_limiter": self.rate_limiter}

    def header(self) -> dict[str, Any]:
        """What a trace header records about the live run (never the key or the endpoint's userinfo)."""
        meta: dict[str, Any] = {"model": self.spec, "live": True, "retry_policy": self.retry_policy.describe()}
        if self.rate_limiter is not None:
            meta["rate_limit"] = self.rate_limiter.describe()
        return meta

    def redactor(self, extra_patterns: tuple[str, ...] | list[str] = ()) -> Redactor:
        # The key may come from .env, which the environment-based default redactor never sees;
        # as literal values they are found by a substring test and named in their markers.
        return default_redactor(extra_patterns, secrets=self.secrets)


def build_live_model(
    model: str | None,
    base_url: str | None = None,
    timeout: float | None = None,
    max_retries: int = 6,
    max_qps: float | None = None,
    replies: tuple[str, ...] | list[str] = (),
    clock: Clock | None = None,
    fallbacks: bool = False,
    breaker_cool_down: float = 30.0,
) -> LiveModel:
    """The model `model` names (else the environment's or .env's), with its retry policy and limiter.

    fallbacks: the default model of AVAILABLE_MODELS (`model` may name an entry by id or name), the rest
    of the list taking over in order, each behind the circuit breaker of its endpoint.
    Raises ModelConfigError or ValueError with a one-line message when it cannot be set up.
    """
    config = load_model_config(model=model, base_url=base_url, timeout=timeout)
    if fallbacks:
        listed = load_model_list(model=model)
        if not breaker_cool_down >= 0:
            raise ModelConfigError(f"--breaker-cool-down must be 0 or more seconds, got {breaker_cool_down}")
        breaker = {**LIVE_BREAKER, "cool_down": breaker_cool_down}
        built, spec = _model_chain(listed, config, replies, breaker), listed.default.spec
        warnings = listed.warnings
    elif not config.model:
        raise ModelConfigError(
            f"no model configured: pass --model PROVIDER:NAME (e.g. openai:gpt-4o-mini), "
            f"set {ENV_MODEL}, or pass --fallbacks to use the {ENV_MODELS} list"
        )
    else:
        built, spec, warnings = create_model(config.model, config, replies=replies), config.model, ()
    policy = RetryPolicy(max_retries=max_retries)
    limiter = RateLimiter(max_qps, burst=1, clock=clock) if max_qps is not None else None
    secrets = {"OPENAI_API_KEY": config.api_key.get_secret_value()} if config.api_key else {}
    secrets.update(url_credentials(config.endpoint))  # ?api-key=... and user:password@ are as secret as the key
    if fallbacks:
        secrets.update(_list_secrets(listed))
    secrets = {name: value for name, value in secrets.items() if len(value) >= MIN_HIDDEN_LENGTH}  # "x" is no secret
    return LiveModel(spec, built, policy, limiter, secrets, tuple(warnings))


def _list_secrets(listed: ModelList) -> dict[str, str]:
    """The credentials of the list's models: each may name its own endpoint and its own key variable."""
    secrets: dict[str, str] = {}
    for number, entry in enumerate((listed.default, *listed.fallbacks), start=1):
        if entry.base_url:
            secrets.update((f"model-{number}-{name}", value) for name, value in url_credentials(entry.base_url).items())
        if entry.api_key_env and os.environ.get(entry.api_key_env):  # read as entry_config reads it
            secrets[entry.api_key_env] = os.environ[entry.api_key_env]
    return secrets


def _model_chain(
    listed: ModelList, config: Any, replies: tuple[str, ...] | list[str], breaker: dict[str, Any]
) -> ChatModel:
    """executor.create_model_chain, with the scenario's replies for a scripted entry."""
    models = [
        with_breaker(create_model(entry.spec, entry_config(entry, config), replies=replies), **breaker)
        for entry in (listed.default, *listed.fallbacks)
    ]
    return models[0] if len(models) == 1 else with_fallbacks(models[0], models[1:])


# Breakers for a live run with fallbacks: 3 failures within a minute open one, for 30 s.
LIVE_BREAKER = {"failure_threshold": 3, "window": 60.0, "cool_down": 30.0}


class SkippingClock:
    """Real time, except that sleeping is instant: the clock jumps ahead instead of waiting.

    For replaying a recording offline: recorded retries are retried again, but their backoff
    must not make the learner wait.
    """

    def __init__(self) -> None:
        self.skipped = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.skipped

    def sleep(self, seconds: float) -> None:
        self.skipped += max(0.0, seconds)
