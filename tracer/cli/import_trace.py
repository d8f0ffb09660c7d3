"""`loopscope import FILE -o TRACE.jsonl`: another tool's trace (OTLP JSON, LangSmith, Langfuse) as a loopscope trace."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..trace.importers import ImportProblem, convert, write_conversion
from ..trace.literal_text import scrub
from . import COMMANDS
from .progress_bar import progress_bar
from .usage_error import UsageError


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "import",
        help=COMMANDS["import"],
        description="Convert an OTLP JSON file (OpenInference or OpenTelemetry GenAI spans, as "
        "Phoenix, Langfuse or a collector's file exporter write them), a LangSmith run "
        "export or a Langfuse trace export into a loopscope trace. `debug`, `diff` "
        "and `export` open such files directly; this keeps the converted trace.",
    )
    p.add_argument("file", metavar="FILE", help="the other tool's trace (JSON or JSON lines)")
    p.add_argument("-o", "--output", metavar="TRACE.jsonl", required=True, help="where to write the loopscope trace")
    return p


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    if not source.is_file():
        raise UsageError(f"{source}: no such file")
    with progress_bar("importing") as report:
        try:
            conversion = convert(source, report)
        except ImportProblem as problem:
            raise UsageError(str(problem)) from None
        out = write_conversion(conversion, source, args.output, report)
    for warning in conversion.warnings:
        print(scrub(f"warning: {warning}"), file=sys.stderr)
    print(scrub(f"{source.name}: {conversion.recognised} → {len(conversion.events)} events written to {out}"))
    return 0
