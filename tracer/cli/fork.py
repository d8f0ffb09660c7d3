"""`loopscope fork TRACE --at SEQ --reply TEXT`: re-run a recording with one reply or observation changed."""

from __future__ import annotations

import argparse

from executor import ChatModel, SystemClock

from ..agents.frameworks import recorded_by_framework
from ..replay.fork import ForkError, ForkResult, fork_trace
from ..report.diff import diff_traces
from ..trace.literal_text import scrub
from ..trace.redact import Redactor
from . import COMMANDS
from .language import usage_error
from .live_options import live_model
from .output_guard import check_output
from .scenarios import add_agent_argument


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "fork",
        help=COMMANDS["fork"],
        description="Replay TRACE up to event SEQ, substitute the given model reply "
        "(SEQ is an llm_start or llm_end) or tool observation (SEQ is a "
        "tool_start, tool_end or tool_error), then carry on. A later model call "
        "asked the very prompt that was recorded gets its recorded reply. One whose "
        "prompt changed (it now holds your change) gets, by default, the reply "
        "recorded for the old prompt, and a warning names the call and the first "
        "difference; --model sends it to a live model instead, --stop-at-change ends "
        "the fork there. The new trace's header names its parent and the fork point.",
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
        help="answer the calls whose prompt changed, and those the recording has no reply for, "
        "with this model (e.g. openai:gpt-4o-mini)",
    )
    p.add_argument(
        "--stop-at-change",
        action="store_true",
        help="end the fork at the first later model call whose prompt changed, instead of "
        "answering it with the reply recorded for the old prompt",
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
    check_output(args.output, [args.trace], force=True)  # a fork is a trace: -o may replace an older one
    if args.stop_at_change and args.model:
        raise usage_error("cli.fork.error.two_answers", args)
    framework = framework_fork(args)
    if framework is not None:
        return _report(args, framework)
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
            after_fork="stop" if args.stop_at_change else "recording",
        )
    except (ForkError, LookupError) as error:
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=error.args[0]) from None
    return _report(args, result)


def _report(args: argparse.Namespace, result: ForkResult) -> int:
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
    for changed in result.changed:  # prompts quote model replies and tool results: printed literally
        print(scrub(("warning: " if changed.answered == "recording" else "") + changed.sentence()))
    print(scrub(_outcome(result)))
    return 0


def _outcome(result: ForkResult) -> str:
    """The fork's outcome, said to be stale when it rests on replies recorded for other prompts."""
    stopped = next((changed for changed in result.changed if changed.answered == "stopped"), None)
    if stopped is not None:
        return (
            f"outcome: stopped before model call #{stopped.call} (--stop-at-change); "
            f"`loopscope debug {result.path}` shows the prompt it would have sent"
        )
    stale = len(result.stale)
    if not stale:
        return f"outcome: {result.trace.outcome()}"
    replies = "reply recorded for another prompt" if stale == 1 else "replies recorded for other prompts"
    # A framework agent's fork has no --model: its changed calls can only be answered or stopped.
    live = "" if recorded_by_framework(result.trace.header) else "--model asks a live model, "
    return f"outcome (stale: {stale} later {replies}; {live}--stop-at-change stops there): {result.trace.outcome()}"


def framework_fork(args: argparse.Namespace) -> ForkResult | None:
    """The fork of a framework agent's run (a LangGraph graph), re-run through its framework; None for a run
    of loopscope's own executor."""
    from ..agents.framework_agent import load_framework_agent  # late: loads the user's agent
    from ..agents.scenario_registry import UnknownAgent
    from ..agents.trust import trusted_agent
    from ..replay.framework_fork import fork_framework_trace
    from ..trace.transitions import Trace

    try:
        trace = Trace.load(args.trace)
    except Exception:  # fork_trace says what is wrong with the file, as for any trace
        return None
    if not recorded_by_framework(trace.header):
        return None
    if args.model:
        problem = (
            "--model answers a fork of loopscope's own agents; a framework agent's fork is "
            "answered from its recording (use --stop-at-change to end it where a prompt changed)"
        )
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=problem)
    try:
        agent = load_framework_agent(trusted_agent(trace.header.agent, args.agents), offline=True)
    except UnknownAgent as error:
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=error.args[0]) from None
    if agent is None:
        problem = "recorded from a framework's agent, but --agent names loopscope's own"
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=problem)
    try:
        return fork_framework_trace(
            trace,
            args.at,
            agent,
            reply=args.reply,
            observation=args.observation,
            output=args.output,
            after_fork="stop" if args.stop_at_change else "recording",
        )
    except ForkError as error:
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=error.args[0]) from None
