"""Live models on the command line (--model, --live, --base-url, retries, pacing) and replaying them."""

from __future__ import annotations

import argparse
import re
import time
from dataclasses import dataclass, field
from typing import Any

from executor import ChatModel, RateLimiter, RetryPolicy
from executor.clock import Clock
from executor.config import ENV_MODEL, ModelConfigError, load_model_config
from executor.providers import create_model

from ..cli.usage_error import UsageError
from ..trace.redact import Redactor, default_redactor


def add_live_arguments(parser: argparse.ArgumentParser, live_flag: bool = True) -> None:
    """The live-model options; `live_flag=False` for commands whose --live means something else."""
    group = parser.add_argument_group("live model (instead of the recording)")
    group.add_argument("--model", metavar="PROVIDER:NAME",
                       help="run against a model: openai:gpt-4o-mini, openai:llama3 with --base-url, "
                            "replay:TRACE.jsonl, or scripted")
    if live_flag:
        group.add_argument("--live", action="store_true",
                           help=f"run against the configured model ({ENV_MODEL} in the environment or .env)")
    group.add_argument("--base-url", metavar="URL",
                       help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 "
                            "(default: OPENAI_BASE_URL, else api.openai.com)")
    group.add_argument("--max-retries", type=int, default=6, metavar="N",
                       help="retries per model call after the first attempt (default 6: up to 7 calls)")
    group.add_argument("--max-qps", type=float, metavar="QPS", help="pace model calls to at most QPS per second")
    group.add_argument("--timeout", type=float, metavar="SECONDS",
                       help="how long to wait for each model reply (default 60)")


def wants_live(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "model", None) or getattr(args, "live", False))


@dataclass(frozen=True)
class LiveModel:
    """A model ready for a live run, with the retry policy and rate limiter that go with it."""

    spec: str
    model: ChatModel
    retry_policy: RetryPolicy
    rate_limiter: RateLimiter | None
    secrets: dict[str, str] = field(default_factory=dict, repr=False)

    def executor_options(self) -> dict[str, Any]:
        return {"retry_policy": self.retry_policy, "rate_limiter": self.rate_limiter}

    def header(self) -> dict[str, Any]:
        """What a trace header records about the live run (never the key or the endpoint's userinfo)."""
        meta: dict[str, Any] = {"model": self.spec, "live": True, "retry_policy": self.retry_policy.describe()}
        if self.rate_limiter is not None:
            meta["rate_limit"] = self.rate_limiter.describe()
        return meta

    def redactor(self, extra_patterns: tuple[str, ...] | list[str] = ()) -> Redactor:
        # The key may come from .env, which the environment-based default redactor never sees.
        return default_redactor([*extra_patterns, *(re.escape(secret) for secret in self.secrets.values())])


def live_model(args: argparse.Namespace, replies: tuple[str, ...] | list[str], clock: Clock) -> LiveModel:
    """Build the model the flags (or the environment, or .env) name; config problems become UsageErrors."""
    try:
        config = load_model_config(model=getattr(args, "model", None), base_url=getattr(args, "base_url", None),
                                   timeout=getattr(args, "timeout", None))
        if not config.model:
            raise ModelConfigError(f"no model configured: pass --model PROVIDER:NAME "
                                   f"(e.g. openai:gpt-4o-mini) or set {ENV_MODEL}")
        model = create_model(config.model, config, replies=replies)
        policy = RetryPolicy(max_retries=getattr(args, "max_retries", 6))
        qps = getattr(args, "max_qps", None)
        limiter = RateLimiter(qps, burst=1, clock=clock) if qps is not None else None
    except (ModelConfigError, ValueError) as error:
        raise UsageError(str(error)) from None
    secrets = {"OPENAI_API_KEY": config.api_key.get_secret_value()} if config.api_key else {}
    return LiveModel(config.model, model, policy, limiter, secrets)


def recorded_retry_policy(header: dict[str, Any]) -> RetryPolicy | None:
    """The retry policy a trace was recorded under (its header says), for re-executing it.

    A replay must run under the same policy: it re-raises the recorded failed attempts, and
    a tool's call stack includes the retry frame only when a policy is in force.
    """
    described = header.get("retry_policy")
    return RetryPolicy.from_description(described) if isinstance(described, dict) else None


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
