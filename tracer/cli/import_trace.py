"""`loopscope import FILE -o TRACE.jsonl | FOLDER`: another tool's traces (OTLP JSON, LangSmith, Langfuse) as loopscope traces, one per trace id."""

from __future__ import annotations

import argparse
import gc
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..trace.importers import FolderImport, ImportProblem, convert_all, import_to_folder, write_conversion
from ..trace.literal_text import scrub
from ..trace.writer import TraceWriteError
from . import COMMANDS
from .language import usage_error
from .output_guard import check_output
from .progress_bar import Report, progress_bar
from .usage_error import UsageError

LISTED = 20  # traces named one by one; past this the import is summed up in one line
NOTES_SHOWN = 5  # distinct warnings printed; the rest are counted


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "import",
        help=COMMANDS["import"],
        description="Convert an OTLP JSON file (OpenInference or OpenTelemetry GenAI spans, as "
        "Phoenix, Langfuse or a collector's file exporter write them), a LangSmith run "
        "export or a Langfuse trace export into loopscope traces, one per trace id: "
        "each model call with its messages, tools offered, reply and tool calls, each "
        "tool call with its input and output. `debug`, `diff` and `export` open such "
        "files directly; this keeps the converted traces.",
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="the other tool's trace (JSON or JSON lines)")
    p.add_argument(
        "--phoenix",
        metavar="URL",
        help="pull the traces from a Phoenix server's REST API instead of a file (e.g. http://127.0.0.1:6006; "
        "PHOENIX_API_KEY is sent when set); -o is then a folder",
    )
    p.add_argument(
        "--project", default="default", metavar="NAME", help="with --phoenix: the project (default: default)"
    )
    p.add_argument(
        "--since",
        metavar="WHEN",
        help="with --phoenix: only spans that started since WHEN: a UTC date or time (2026-12-01, "
        "2026-12-01T18:00) or an age (30m, 2h, 7d)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="TRACE.jsonl|FOLDER",
        required=True,
        help="where to write: a .jsonl file (a file with one trace, or --trace-id), or a folder "
        "that gets one trace file per trace id",
    )
    p.add_argument("--trace-id", metavar="ID", help="convert only this trace (its id, or the start of it)")
    return p


def _is_folder(out: Path) -> bool:
    return out.is_dir() or out.suffix.lower() not in (".jsonl", ".json")


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cycle collector off for a folder import, from its read to its last trace written.

    The spans read (50,000 in a big file) and the events made from them hold no cycles and are freed
    as each trace is written; with the collector on, its first passes after the read walked them all
    (~0.2 s, and more the bigger the file) to find nothing. Whatever else was collecting is back after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def run(args: argparse.Namespace) -> int:
    if args.phoenix:
        return _from_phoenix(args)
    if args.file is None:
        raise UsageError("name the file to import, or pull from a Phoenix server with --phoenix URL")
    if args.since or args.project != "default":
        raise UsageError("--since and --project go with --phoenix URL")
    source, out = Path(args.file), Path(args.output)
    check_output(out, [source], force=True)  # what it writes is a trace: -o may replace an older one
    if not source.is_file():  # a FIFO or /dev/zero would be read forever: say what it is
        if source.exists():
            raise UsageError(f"{source}: is not a regular file (a pipe or a device?); save the trace to a file first")
        raise usage_error("cli.import.error.no_file", args, path=source)
    with progress_bar("importing") as report:  # on stderr, and only when it is a terminal
        try:
            if _is_folder(out) and args.trace_id is None:
                with _collector_paused():
                    return _to_folder(source.name, import_to_folder(source, out, report), out, report)
            imported = convert_all(source, report)
            report("making events", 0, 0)
            conversion = imported.pick(args.trace_id)
            target = out / f"{source.stem}.jsonl" if _is_folder(out) else out
            written = write_conversion(conversion, source, target, progress=report)
        except (ImportProblem, TraceWriteError) as problem:
            raise UsageError(str(problem)) from None
    _warn(conversion.notes)
    lossy = f", with {len(conversion.notes)} warning(s)" if conversion.notes else ""
    print(
        scrub(f"{source.name}: {conversion.recognised} → {len(conversion.events)} events written to {written}{lossy}")
    )
    return 0


def _from_phoenix(args: argparse.Namespace) -> int:
    # Late: only --phoenix needs the HTTP client.
    from ..trace.importers.phoenix import import_from_phoenix
    from ..trace.importers.phoenix_client import PhoenixError
    from .phoenix_import import phoenix_source

    if args.file is not None:
        raise UsageError(f"give a file or --phoenix URL, not both ({scrub(args.file)!r} and {scrub(args.phoenix)!r})")
    source, folder = phoenix_source(args), Path(args.output)
    if folder.suffix.lower() in (".jsonl", ".json") or folder.is_file():
        raise UsageError(f"-o {scrub(args.output)}: with --phoenix, -o names a folder (one trace file per trace id)")
    check_output(folder, [], force=True)
    with progress_bar("importing") as report:
        try:
            with _collector_paused():
                imported = import_from_phoenix(source, folder, report)
                return _to_folder(f"Phoenix {source.url} ({source.project})", imported, folder, report)
        except (PhoenixError, ImportProblem, TraceWriteError) as problem:
            raise UsageError(str(problem)) from None


def _to_folder(source: str, imported: FolderImport, folder: Path, report: Report) -> int:
    notes: Counter[str] = Counter()
    events = traces = 0
    try:
        report("writing traces", 0, imported.traces)
        for written in imported.written:
            traces += 1
            report("writing traces", traces, imported.traces)
            events += written.events
            notes.update(written.notes)
            if imported.traces <= LISTED:
                print(scrub(f"{written.path.name}: {written.recognised} → {written.events} events"))
    except KeyboardInterrupt:
        raise KeyboardInterrupt(
            f"{traces:,} of {imported.traces:,} trace(s) were written to {folder}/ (each whole; none half-written)"
        ) from None
    _warn(list(notes), notes if imported.traces > 1 else None)
    lossy = f", with {len(notes)} different warning(s)" if notes else ""
    print(scrub(f"{source}: {imported.label}, {traces:,} trace(s) → {events:,} events written to {folder}/{lossy}"))
    return 0


def _warn(lines: list[str], counts: Counter[str] | None = None) -> None:
    """Warnings on stderr, each once (with how many traces it concerns when there are several)."""
    for line in lines[:NOTES_SHOWN]:
        times = f" (in {counts[line]:,} traces)" if counts is not None and counts[line] > 1 else ""
        print(scrub(f"warning: {line}{times}"), file=sys.stderr)
    if len(lines) > NOTES_SHOWN:
        print(f"warning: and {len(lines) - NOTES_SHOWN} more different warning(s)", file=sys.stderr)
