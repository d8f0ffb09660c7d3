"""`loopscope diff A B`: two runs aligned by transition, the first point they part, and what differs."""

from __future__ import annotations

import argparse
import sys

from ..report.diff import diff_traces, render_diff
from ..trace.literal_text import scrub
from . import COMMANDS
from .trace_choice import add_trace_id_argument, chosen_trace, ids_for


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "diff",
        help=COMMANDS["diff"],
        description="Align two runs by their transitions (plan, AgentAction, tool, "
        "step, ...), show where they first part and what differs there: "
        "reply text, action, observation or outcome. Exit 0 when the "
        "runs agree, 1 when they part.",
    )
    p.add_argument("a", metavar="A", help="a trace file")
    p.add_argument("b", metavar="B", help="another trace file, e.g. a fork of A")
    p.add_argument(
        "--context", type=int, default=3, metavar="N", help="rows shown around the parting point (default 3)"
    )
    add_trace_id_argument(p, twice=True)
    return p


def run(args: argparse.Namespace) -> int:
    # Another tool's file holding several traces: the one --trace-id names (A's, then B's), else one line listing them.
    files = [
        chosen_trace(path, trace_id, ask=False)
        for path, trace_id in zip((args.a, args.b), ids_for([args.a, args.b], args.trace_ids))
    ]
    diff = diff_traces(*files)
    for trace in (diff.a, diff.b):
        if trace.warning:
            print(scrub(f"warning: {trace.warning}"), file=sys.stderr)
    print(scrub("\n".join(render_diff(diff, (args.a, args.b), context=max(0, args.context)))))
    return 0 if diff.same else 1
