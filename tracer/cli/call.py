"""`loopscope call TRACE --at SEQ [--prompt-file F] [--model P:NAME | --replies F.json]`: ask one recorded model call again."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from executor import ModelReply, ScriptedModel
from executor.events import LLMEndEvent, LLMStartEvent, SourceRef

from ..models.playground import PlaygroundError, configured_model, read_request, recorded_call, rerun_call
from ..report.cost.prices import CallCost, call_costs
from ..report.text.literal import literal
from ..trace.reader import load_trace
from . import COMMANDS
from .language import usage_error
from .options import price_table
from .scenarios import add_agent_argument, given_replies
from .usage_error import UsageError


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "call",
        help=COMMANDS["call"],
        description="Send the prompt of the model call at SEQ (its llm_start) again, or an edited "
        "one from --prompt-file (`loopscope prompt TRACE --at SEQ -o FILE` writes it to edit; a "
        "tool-calling agent's call is its message list, as JSON), and show the new reply beside "
        "the recorded one. The "
        "loop is not re-run. An unchanged prompt without --model replays the recorded "
        "reply; a changed one goes to --model, else the configured live model "
        "(LOOPSCOPE_MODEL), or offline to the first reply of --replies FILE.json. `loopscope fork TRACE --at SEQ --reply ...` carries a new "
        "reply on through the run.",
    )
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--at", type=int, required=True, metavar="SEQ", help="the call's llm_start (or llm_end)")
    p.add_argument("--prompt-file", metavar="FILE", help="the prompt to send instead of the recorded one ('-': stdin)")
    answers = p.add_mutually_exclusive_group()
    answers.add_argument("--model", metavar="PROVIDER:NAME", help="the model to ask (e.g. openai:gpt-4o-mini)")
    answers.add_argument(
        "--replies",
        metavar="FILE.json",
        help="answer offline with the first reply in this file (the built-in scripted model), as record/run/debug "
        'take it: a JSON list of replies, each a string or {"text": ..., "tool_calls": [...]}',
    )
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint for --model")
    # call re-asks one recorded prompt and never builds the agent, so nothing is imported with or
    # without it; taken so that one set of flags works on every command that reads a trace.
    add_agent_argument(p)
    return p


def _prompt(args: argparse.Namespace) -> str | None:
    if not args.prompt_file:
        return None
    if args.prompt_file == "-":
        return sys.stdin.read()
    try:  # surrogatepass: what `loopscope prompt -o` wrote of a prompt holding a lone surrogate
        return Path(args.prompt_file).read_text("utf-8", errors="surrogatepass")
    except OSError as error:
        raise usage_error("cli.call.error.prompt_file", args, path=args.prompt_file, problem=error.strerror) from None
    except UnicodeDecodeError as error:
        path, reason, at = args.prompt_file, error.reason, error.start
        raise usage_error("cli.call.error.not_utf8", args, path=path, reason=reason, at=at) from None


def _first_reply(args: argparse.Namespace) -> list[str | ModelReply]:
    """The reply --replies gives this one call; a file with several says it used only the first."""
    replies = given_replies(args) or ()
    if not replies:
        raise UsageError(f"--replies {args.replies}: the list is empty; give the one reply this call should get")
    if len(replies) > 1:
        print(f"loopscope call: one call asked, so the first of {len(replies)} replies answers it", file=sys.stderr)
    return [replies[0]]


def _section(console: Console, title: str, body: str) -> None:
    console.print(literal(f"── {title} ──", style="bold"))
    console.print(literal(body or "(empty)"))


def run(args: argparse.Namespace) -> int:
    _header, events, _warning = load_trace(args.trace)
    console = Console(highlight=False, soft_wrap=True)
    try:
        call = recorded_call(events, args.at)
        prompt = _prompt(args)
        changed = read_request(call, prompt).changed
        if args.replies:  # offline: the scripted model answers with the file's first reply
            model: tuple[str, Any] | None = ("scripted (--replies)", ScriptedModel(_first_reply(args)))
        else:
            model = configured_model(args.model, args.base_url) if (args.model or changed) else None
        rerun = rerun_call(call, prompt, model)
    except PlaygroundError as error:
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=error) from None
    request = "message list" if call.messages is not None else "prompt"
    what = f"edited {request}" if rerun.prompt_changed else f"the recorded {request}"
    # The caller and model come from the trace, who answered from --model or .env: all shown literally.
    console.print(
        literal(
            f"event {call.at} · {call.caller}() asked {call.model} · {what} "
            f"({len(rerun.prompt):,} chars) → answered by {rerun.answered_by}",
            style="bold",
        )
    )
    _section(console, "recorded reply", call.reply)
    _section(console, f"new reply ({rerun.answered_by}, {rerun.seconds:.2f}s)", rerun.reply)
    diff = rerun.reply_diff()
    console.print(Text("── the replies are the same ──" if not diff else "── diff ──", style="bold"))
    for line in diff[2:]:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
        console.print(literal(line), style=style)
    cost = _cost(call, rerun)
    if cost is not None:  # a replayed call's usage is the one the endpoint reported when it was recorded
        console.print(literal(f"tokens{' (as recorded)' if rerun.replayed else ''}: {cost.describe()}", style="dim"))
    if diff:
        console.print(literal(f"carry it on: loopscope fork {args.trace} --at {call.at} --reply '…'", style="dim"))
    return 0


def _cost(call, rerun) -> CallCost | None:
    source = SourceRef(file="", line=0, function=call.caller)
    envelope = {"run_id": "call", "t": 0.0, "iteration": 0, "frames": (call.caller,), "source": source}
    start = LLMStartEvent(
        seq=0,
        model=rerun.answered_by if not rerun.replayed else call.model,
        prompt=rerun.prompt,
        stop=list(call.stop),
        **envelope,
    )
    end = LLMEndEvent(seq=1, text=rerun.reply, usage=rerun.usage, duration=rerun.seconds, **envelope)
    costs = call_costs([start, end], price_table(None))  # $LOOPSCOPE_PRICES, if the user set it
    return costs[0] if costs else None
