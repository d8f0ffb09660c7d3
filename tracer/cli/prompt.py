"""`loopscope prompt TRACE --at SEQ [-o FILE]`: the exact prompt (or message list) of one recorded model call."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..models.playground import PlaygroundError, recorded_call
from ..trace.literal_text import escape_controls_in_json, scrub
from ..trace.reader import load_trace
from . import COMMANDS
from .language import usage_error
from .output_guard import add_force_option, check_output


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "prompt",
        help=COMMANDS["prompt"],
        description="Print the exact prompt the model call at SEQ was sent (for a tool-calling agent's call, "
        "its message list as JSON), or write it to FILE, to edit and send again with "
        "`loopscope call TRACE --at SEQ --prompt-file FILE`. A trace stores each prompt as what "
        "it adds to the one before; this gives it whole. Printed, control characters are shown "
        "as visible stand-ins; -o writes them as they are.",
    )
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--at", type=int, required=True, metavar="SEQ", help="the call's llm_start (or llm_end)")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE, exactly (default: print it)")
    add_force_option(p)
    return p


def run(args: argparse.Namespace) -> int:
    check_output(args.output, [args.trace], args.force)
    _header, events, _warning = load_trace(args.trace)
    try:
        call = recorded_call(events, args.at)
    except PlaygroundError as error:
        raise usage_error("cli.error.in_file", args, path=args.trace, problem=error) from None
    text = call.request_text
    what = "message list" if call.messages is not None else "prompt"
    if args.output:
        try:  # surrogatepass: a lone surrogate in a prompt (text read with errors="surrogateescape") is kept
            Path(args.output).write_text(text, encoding="utf-8", errors="surrogatepass", newline="")
        except OSError as error:
            raise usage_error("cli.prompt.error.output", args, path=args.output, problem=error.strerror) from None
        print(
            scrub(
                f"wrote the {what} of model call {call.at} ({call.caller}() asked {call.model}; {len(text):,} "
                f"characters) to {args.output}; send it again with: "
                f"loopscope call {args.trace} --at {call.at} --prompt-file {args.output}"
            ),
            file=sys.stderr,
        )
        return 0
    # A terminal must not act on a trace's escape sequences: JSON keeps its value with \u escapes, a
    # prompt gets visible stand-ins (then it is not the exact text any more, and says so).
    shown = escape_controls_in_json(text) if call.messages is not None else scrub(text)
    sys.stdout.write(shown if shown.endswith("\n") else shown + "\n")  # call --prompt-file drops that newline
    if call.messages is None and shown != text:
        print(
            "loopscope: the prompt holds control characters, printed as stand-ins; -o FILE writes it exactly",
            file=sys.stderr,
        )
    return 0
