"""`loopscope export --mermaid TRACE`: a run's transitions as a Mermaid state diagram."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from ..report.mermaid import mermaid_state_diagram
from ..trace.transitions import Trace
from .usage_error import UsageError
from . import COMMANDS


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("export", help=COMMANDS["export"],
                       description="Write the run's transitions as a Mermaid stateDiagram-v2: "
                                   "one state per kind of transition, edges labelled with rounds.")
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--mermaid", action="store_true", help="Mermaid state diagram (the only format so far)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of printing (e.g. run.mmd)")
    return p


def write_atomically(path: Path, text: str) -> None:
    """Temp file in the same directory, then rename: a reader never sees half a diagram."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temp, path)


def run(args: argparse.Namespace) -> int:
    if not args.mermaid:
        raise UsageError("choose a format: --mermaid")
    trace = Trace.load(args.trace)
    if trace.warning:
        print(f"warning: {trace.warning}", file=sys.stderr)
    diagram = mermaid_state_diagram(trace.transitions(), title=trace.scenario or Path(args.trace).stem)
    if args.output:
        write_atomically(Path(args.output), diagram)
        print(f"wrote {len(trace.transitions())} transitions of {args.trace} to {args.output}")
    else:
        print(diagram, end="")
    return 0
