"""`loopscope export`: a run's transitions as a Mermaid diagram, its spans as OTLP, or one offline HTML page."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TextIO

from executor.models.credentials import hide_credentials

from ..report.mermaid import loop_state_diagram, mermaid_state_diagram
from ..trace.literal_text import scrub
from ..trace.reader import TraceFile
from ..trace.transitions import Trace
from . import COMMANDS
from .language import usage_error
from .options import price_table
from .output_guard import add_force_option, check_output
from .progress_bar import progress_bar

FORMATS = ("mermaid", "otlp-json")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "export",
        help=COMMANDS["export"],
        description="Write a run's transitions as a Mermaid stateDiagram-v2, or its events as "
        "OpenTelemetry spans (OpenInference conventions): --otlp URL sends them to a "
        "collector over OTLP/HTTP, --format otlp-json -o FILE writes OTLP JSON. "
        "Secrets are redacted before anything is written or sent.",
    )
    p.add_argument("traces", metavar="TRACE", nargs="+")
    p.add_argument("--mermaid", action="store_true", help="Mermaid state diagram (same as --format mermaid)")
    p.add_argument("--format", choices=FORMATS, help="mermaid (one trace) or otlp-json (any number)")
    p.add_argument(
        "--otlp",
        metavar="URL",
        help="send the spans to this OTLP/HTTP collector (e.g. http://127.0.0.1:4318 or …/v1/traces)",
    )
    p.add_argument(
        "--states",
        action="store_true",
        help="with --mermaid: draw the loop's state machine (planning, acting, observing, summarizing, "
        "finished, error) with how often each edge was taken, instead of the transitions",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of printing (e.g. run.mmd, run.json)")
    p.add_argument(
        "--html",
        metavar="OUT.html",
        help="one self-contained HTML page: totals, the waterfall, the timeline, every event's detail "
        "(prompts, replies, tokens, cost); it loads nothing from anywhere and opens offline",
    )
    add_force_option(p)
    return p


def write_atomically(path: Path, text: str | Callable[[TextIO], object]) -> None:
    """Temp file in the same directory, fsynced, then renamed: a reader never sees half a file, and
    a failed or interrupted write (a full disk, Ctrl-C) removes its temp file and leaves `path` as it was.
    `text` may be a function that writes to the file (a document too big to hold whole)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(text) if isinstance(text, str) else text(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _load(paths: list[str]) -> list[Trace]:
    traces = [Trace.load(path) for path in paths]
    for trace in traces:
        if trace.warning:
            print(scrub(f"warning: {trace.warning}"), file=sys.stderr)
    return traces


def run(args: argparse.Namespace) -> int:
    chosen = "mermaid" if args.mermaid else args.format
    check_output(args.html or args.output, args.traces, args.force)
    if args.html:
        return _html(args)
    if args.otlp:
        return _send(args)
    if chosen is None:
        raise usage_error("cli.export.error.no_format", args)
    if chosen == "otlp-json":
        return _otlp_json(args)
    if len(args.traces) != 1:
        raise usage_error("cli.export.error.mermaid_one", args, count=len(args.traces))
    return _mermaid(args)


def _mermaid(args: argparse.Namespace) -> int:
    trace = _load(args.traces)[0]
    title = trace.scenario or Path(args.traces[0]).stem
    diagram = (
        loop_state_diagram(trace.events, title)
        if args.states
        else mermaid_state_diagram(trace.transitions(), title=title)
    )
    return _write_or_print(args, diagram, f"{len(trace.transitions())} transitions of {args.traces[0]}")


def _otel() -> ModuleType:
    """tracer.report.otlp.wire, which loads OpenTelemetry and protobuf: the [otel] extra, so that
    --mermaid works without it. Without it: one line that names the extra (a UsageError)."""
    try:
        from ..report.otlp import wire as otlp_wire  # late: the [otel] extra, which --mermaid does not need
    except ImportError as missing:
        raise usage_error("cli.export.error.no_otel", None, package=missing.name or "OpenTelemetry") from None
    return otlp_wire


def _spans(args: argparse.Namespace) -> list:
    _otel()
    from ..report.otlp.export import spans_of  # late: loaded by _otel() just above, the [otel] extra

    return [span for trace in _load(args.traces) for span in spans_of(trace)]


def _otlp_json(args: argparse.Namespace) -> int:
    _otel()
    from ..report.otlp.json_file import write_otlp_json  # late: the [otel] extra, checked just above

    def warn(trace: TraceFile) -> None:
        if trace.warning:
            print(scrub(f"warning: {trace.warning}"), file=sys.stderr)

    written: list[int] = []

    # Written a span at a time as the trace is read (a 100 MB observation is never held as a document).
    def write(out: TextIO) -> None:
        written.append(write_otlp_json(args.traces, out, opened=warn))

    return _write_or_print(args, write, lambda: f"{written[0]} spans of {len(args.traces)} trace(s)", " (OTLP JSON)")


def _html(args: argparse.Namespace) -> int:
    if len(args.traces) != 1:
        raise usage_error("cli.export.error.html_one", args, count=len(args.traces))
    from ..report.html.trace_page import trace_page  # late: only --html needs the page's renderers

    with progress_bar("exporting") as report:
        text = trace_page(args.traces[0], report, price_table(None))  # $LOOPSCOPE_PRICES, if the user set it
    args.output = args.html
    size = len(text.encode("utf-8"))
    shown = f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} kB"
    return _write_or_print(args, text, f"the HTML page of {args.traces[0]}", f" ({shown})")


def _write_or_print(
    args: argparse.Namespace, text: str | Callable[[TextIO], object], what: str | Callable[[], str], kind: str = ""
) -> int:
    """To -o FILE (atomically, saying what was written) or to stdout. `text` may be a function that
    writes the document (then `what` may be one that says what it wrote, once it has)."""
    if args.output:
        output = Path(args.output)
        kept = f"{output} was left as it was" if output.exists() else "nothing was written"
        try:
            write_atomically(output, text)
        except OSError as error:
            print(scrub(f"loopscope: cannot write {output}: {error.strerror or error}; {kept}"), file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            raise KeyboardInterrupt(scrub(kept)) from None
        print(scrub(f"wrote {what() if callable(what) else what} to {args.output}{kind}"))
    elif isinstance(text, str):
        print(text, end="")
    else:
        text(sys.stdout)
    return 0


def _send(args: argparse.Namespace) -> int:
    wire = _otel()
    spans = _spans(args)
    try:
        status = wire.post_spans(args.otlp, spans)
    except wire.OTLPExportError as error:  # it quotes the URL (its user:password@ too) and the collector's reply
        said = hide_credentials(str(error))
        print(scrub(f"error: {said}; the trace files are unchanged, try again when it is up"), file=sys.stderr)
        return 1
    print(
        scrub(
            f"sent {len(spans)} spans of {len(args.traces)} trace(s) to {hide_credentials(args.otlp)} (HTTP {status})"
        )
    )
    return 0
