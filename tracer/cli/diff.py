"""`loopscope diff A B`: two runs aligned by transition, the first point they part, and what differs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..report.diff import TraceDiff, diff_traces, render_diff
from ..trace.literal_text import scrub
from . import COMMANDS
from .language import usage_error
from .options import price_table
from .output_guard import add_force_option, check_output
from .progress_bar import progress_bar
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
    p.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write one self-contained HTML page: the aligned transitions, then each run's waterfall "
        "and timeline side by side (it loads nothing from anywhere and opens offline)",
    )
    add_trace_id_argument(p, twice=True)
    add_force_option(p)
    return p


def run(args: argparse.Namespace) -> int:
    check_output(args.html, [args.a, args.b], args.force)
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
    if args.html:
        _write_html(diff, (files[0], files[1]), args.html)
    return 0 if diff.same else 1


def _write_html(diff: TraceDiff, files: tuple[str, str], html: str) -> None:
    from ..report.html.diff_page import diff_page  # late: only --html needs the page's renderers
    from .export import write_atomically

    with progress_bar("writing the diff page") as report:
        text = diff_page(diff, files, report, price_table(None))  # $LOOPSCOPE_PRICES, if the user set it
    output = Path(html)
    try:
        write_atomically(output, text)
    except OSError as error:
        raise usage_error("cli.error.cannot_write", None, path=output, problem=error.strerror or error) from None
    print(scrub(f"wrote the HTML page of the diff to {output}"), file=sys.stderr)
