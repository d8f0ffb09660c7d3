"""The live-model options shared by run, record, debug and fork (--model, --live, --base-url, retries, pacing)."""

from __future__ import annotations

import argparse

from executor.clock import Clock
from executor.config import ENV_MODEL, ModelConfigError

from ..replay.live_model import LiveModel, build_live_model
from .usage_error import UsageError


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


def live_model(args: argparse.Namespace, replies: tuple[str, ...] | list[str], clock: Clock) -> LiveModel:
    """Build the model the flags (or the environment, or .env) name; config problems become UsageErrors."""
    try:
        return build_live_model(getattr(args, "model", None), getattr(args, "base_url", None),
                                getattr(args, "timeout", None), getattr(args, "max_retries", 6),
                                getattr(args, "max_qps", None), replies, clock)
    except (ModelConfigError, ValueError) as error:
        raise UsageError(str(error)) from None
