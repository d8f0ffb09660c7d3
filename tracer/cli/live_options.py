"""The live-model options shared by run, record, debug and fork (--model, --live, --base-url, retries, pacing)."""

from __future__ import annotations

import argparse
import sys

from .bounded_number import bounded_float, bounded_int
from .usage_error import UsageError

TYPE_CHECKING = False  # not typing's: see scenarios.py
if TYPE_CHECKING:  # a model is built only when a command runs live; the parsers (and --help) load no engine
    from executor.clock import Clock

    from ..models.live_model import LiveModel

# executor.models.config.ENV_MODEL (a test keeps them equal), named here for the same reason.
ENV_MODEL = "LOOPSCOPE_MODEL"


def add_live_arguments(parser: argparse.ArgumentParser, live_flag: bool = True) -> None:
    """The live-model options; `live_flag=False` for commands whose --live means something else."""
    group = parser.add_argument_group("live model (instead of the recording)")
    group.add_argument(
        "--model",
        metavar="PROVIDER:NAME",
        help="run against a model: openai:gpt-4o-mini, openai:llama3 with --base-url, replay:TRACE.jsonl, or scripted",
    )
    if live_flag:
        group.add_argument(
            "--live",
            action="store_true",
            help=f"run against the configured model ({ENV_MODEL} in the environment or .env)",
        )
    group.add_argument(
        "--base-url",
        metavar="URL",
        help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 "
        "(default: OPENAI_BASE_URL, else api.openai.com)",
    )
    group.add_argument(
        "--fallbacks",
        action="store_true",
        help="chain the models of AVAILABLE_MODELS: --model picks the default by id or name "
        "(else LOOPSCOPE_MODEL, else the first entry), the rest take over in order, "
        "each behind a circuit breaker; see `loopscope models`",
    )
    group.add_argument(
        "--breaker-cool-down",
        type=bounded_float(0, 86_400, "--breaker-cool-down"),
        default=30.0,
        metavar="SECONDS",
        help="with --fallbacks: how long an open breaker refuses calls before a trial (default 30)",
    )
    group.add_argument(
        "--max-retries",
        type=bounded_int(0, 100, "--max-retries"),
        default=6,
        metavar="N",
        help="retries per model call after the first attempt (default 6: up to 7 calls)",
    )
    group.add_argument(
        "--max-qps",
        type=bounded_float(0.001, 10_000, "--max-qps"),
        metavar="QPS",
        help="pace model calls to at most QPS per second",
    )
    group.add_argument(
        "--timeout",
        type=bounded_float(0.01, 3600, "--timeout"),
        metavar="SECONDS",
        help="how long to wait for each model reply (default 60)",
    )


def wants_live(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "model", None) or getattr(args, "live", False) or getattr(args, "fallbacks", False))


def live_model(args: argparse.Namespace, replies: tuple[str, ...] | list[str], clock: Clock) -> LiveModel:
    """Build the model the flags (or the environment, or .env) name; config problems become UsageErrors."""
    from executor.models.config import ModelConfigError  # late: see TYPE_CHECKING above

    from ..models.live_model import build_live_model  # late: see TYPE_CHECKING above
    from ..trace.literal_text import scrub  # late: see TYPE_CHECKING above

    try:
        live = build_live_model(
            getattr(args, "model", None),
            getattr(args, "base_url", None),
            getattr(args, "timeout", None),
            getattr(args, "max_retries", 6),
            getattr(args, "max_qps", None),
            replies,
            clock,
            getattr(args, "fallbacks", False),
            getattr(args, "breaker_cool_down", 30.0),
        )
    except (ModelConfigError, ValueError) as error:
        raise UsageError(str(error)) from None
    for warning in live.warnings:  # bad list entries: said once, one line each; the run goes on
        print(f"loopscope: warning: {scrub(warning)}", file=sys.stderr)
    return live
