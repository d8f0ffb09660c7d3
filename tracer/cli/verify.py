"""`loopscope verify FIXTURE...`: re-execute each trace with today's executor and report OK or where it parts."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..replay.verify import VerifyResult, verify_trace
from ..trace.literal_text import scrub
from . import COMMANDS
from .output_guard import add_force_option, check_output
from .progress_bar import progress_bar
from .scenarios import add_agent_argument

LABELS = {
    "ok": "OK",
    "diverged": "DIVERGED",
    "truncated": "TRUNCATED",
    "unreadable": "UNREADABLE",
    "untrusted": "UNTRUSTED",
}


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "verify",
        help=COMMANDS["verify"],
        description="Re-run every trace with the current executor, its recorded model "
        "replies and tool results as the cassette, and compare the events "
        "(timestamps, durations, run ids, token usage and source line "
        "numbers are not compared). Exit 0: all OK; 1: a run diverged; "
        "2: a file could not be read, is truncated, or names an agent you have "
        "not trusted (--agent).",
    )
    p.add_argument("traces", nargs="+", metavar="TRACE", help="trace files, or directories of *.jsonl")
    p.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write every run's verdict, and each divergence's two values, as one page",
    )
    add_agent_argument(p)
    add_force_option(p)
    return p


def expand(paths: list[str]) -> list[Path]:
    """Directories stand for the traces in them, so `loopscope verify fixtures` works too."""
    out: list[Path] = []
    for name in paths:
        path = Path(name)
        out.extend(sorted(path.glob("*.jsonl")) if path.is_dir() else [path])
    return out


def report(result: VerifyResult) -> list[str]:
    label = LABELS[result.status]
    if result.status == "ok":
        lines = [f"{label:<10} {result.path}  ({result.events} events)"]
    elif result.status == "diverged":
        first, *rest = result.message.splitlines()
        lines = [f"{label:<10} {result.path}  {first}"] + [" " * 11 + line for line in rest]
    else:
        lines = [f"{label:<10} {result.message}"]
    if result.moved_count:
        lines.append(" " * 11 + f"note: {result.moved_count} recorded line(s) moved since: " + "; ".join(result.moved))
    return lines + [" " * 11 + "note: " + note for note in result.notes]


def run(args: argparse.Namespace) -> int:
    paths = expand(args.traces)
    check_output(args.html, paths, args.force)
    results = []
    with progress_bar("verifying", unit="traces", stages=False) as progress:
        for done, path in enumerate(paths):
            progress(scrub(Path(path).name), done, len(paths))
            results.append(verify_trace(path, args.agents))
    for result in results:
        print(scrub("\n".join(report(result))))  # divergences quote model text: no escapes
    counts = {status: sum(r.status == status for r in results) for status in LABELS}
    summary = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    print(f"{len(results)} trace{'s' if len(results) != 1 else ''}: {summary or 'none given'}")
    if args.html:
        from ..report.html.verify_page import verify_page  # late: only --html needs the page

        Path(args.html).write_text(verify_page(results, LABELS), encoding="utf-8")
        print(scrub(f"wrote {args.html}"))
    moved = [r for r in results if r.status == "ok" and r.moved_count]
    if moved:
        print(
            f"note: {len(moved)} of the OK traces record source lines the code has since moved (their events "
            "still match); `loopscope fixtures --rerecord TRACE...` writes them with today's lines"
        )
    return max((r.exit_code for r in results), default=2)
