"""`loopscope fork TRACE --at SEQ --reply TEXT`: re-run a recording with one reply or observation changed."""

from __future__ import annotations

import argparse

from executor import ChatModel, SystemClock

from ..replay.fork import ForkError, fork_trace
from ..report.diff import diff_traces
from ..trace.literal_text import scrub
from ..trace.redact import Redactor
from . import COMMANDS
from .live_options import live_model
from .scenarios import add_agent_argument
from .usage_error import UsageError


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "fork",
        help=COMMANDS["fork"],
        description="Replay TRACE up to event SEQ, substitute the given model reply "
        "(SEQ is an llm_start or llm_end) or tool observation (SEQ is a "
        "tool_start, tool_end or tool_error), then carry on with the "
        "remaining recorded replies while they fit. The new trace's "
        "header names its parent and the fork point.",
    )
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--at", type=int, required=True, metavar="SEQ", help="the event to change")
    change = p.add_mutually_exclusive_group(required=True)
    change.add_argument("--reply", metavar="TEXT", help="the model's new reply at SEQ")
    change.add_argument("--observation", metavar="TEXT", help="the tool's new result at SEQ")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="where to write the fork (default: ./<trace>.fork-<SEQ>.jsonl)"
    )
    p.add_argument(
        "--model",
        metavar="PROVIDER:NAME",
        help="answer the calls the recording has no reply for with this model "
        "(e.g. openai:gpt-4o-mini); without it the fork ends there",
    )
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint for --model")
    add_agent_argument(p)
    return p


def _live(args: argparse.Namespace) -> tuple[ChatModel | None, Redactor | None]:
    """(model, redactor) for --model, or (None, None) to stay offline."""
    if not args.model:
        return None, None
    live = live_model(args, [], SystemClock())
    return live.model, live.redactor()


def run(args: argparse.Namespace) -> int:
    model, redactor = _live(args)
    try:
        result = fork_trace(
            args.trace,
            args.at,
            reply=args.reply,
            observation=args.observation,
            output=args.output,
            live_model=model,
            redactor=redactor,
            agents=args.agents,
        )
    except (ForkError, LookupError) as error:
        raise UsageError(f"{args.trace}: {error.args[0]}") from None
    diff = diff_traces(args.trace, result.trace)
    print(scrub(f"forked {args.trace} at event {args.at}: wrote {result.path} ({len(result.trace)} events)"))
    if diff.parted_at is not None:  # labels and the outcome quote the trace (tool names, errors): literally
        row = diff.rows[diff.parted_at]
        label = row.either.label
        print(
            scrub(
                f"it parts from the parent at transition {diff.parted_at} ({label}); "
                f"`loopscope diff {args.trace} {result.path}` shows how"
            )
        )
    print(scrub(f"outcome: {result.trace.outcome()}"))
    return 0
