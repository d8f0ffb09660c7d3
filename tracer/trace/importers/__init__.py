"""Other tools' traces (OTLP JSON, LangSmith and Langfuse exports) converted to loopscope traces."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from .. import otel_mapping as om
from ..format_error import TraceFormatError
from ..writer import TraceWriter
from . import otlp, run_exports
from .shape import MAX_DEPTH, ShapeNotes, loads, nested_deeper_than
from .spans import LLM, TOOL, Conversion, Span, events_from_spans, plain_name

SUPPORTED = "a loopscope trace (JSONL), OTLP JSON, a LangSmith run export or a Langfuse trace export"
# (what is being done, done, of how many): the command's progress bar; None draws nothing.
Progress = Callable[[str, int, int], None]
_CHUNK = 4 << 20
_EVERY = 2_000  # spans or events between two reports


def _quiet(what: str, done: int, total: int) -> None:
    return None


class ImportProblem(TraceFormatError):
    """A file no importer can read; the message is one line naming what was recognised."""


def _read_text(path: Path, progress: Progress) -> str:
    """The file's text, read a few MB at a time so that a big file's progress moves."""
    size, parts, done = path.stat().st_size, [], 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            parts.append(chunk)
            done += len(chunk)
            progress("reading MB", done >> 20, size >> 20)
    return b"".join(parts).decode("utf-8", errors="replace")


def _documents(path: Path, progress: Progress = _quiet) -> list[Any]:
    """The file's JSON: one document, or one per line (a collector's file exporter writes JSON lines)."""
    text = _read_text(path, progress).strip()
    progress("parsing JSON", 0, 0)
    if not text:
        raise ImportProblem(path, None, "the file is empty")
    try:
        documents = [loads(text)]
    except json.JSONDecodeError:
        documents = _json_lines(path, text)
    except RecursionError:  # the json module gives up past ~1,000 levels
        raise _too_deep(path, None) from None
    for number, document in enumerate(documents, start=1):
        if nested_deeper_than(document):
            raise _too_deep(path, number if len(documents) > 1 else None)
    return documents


def _json_lines(path: Path, text: str) -> list[Any]:
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                documents.append(loads(line))
            except json.JSONDecodeError as error:
                raise ImportProblem(path, number, f"not JSON ({error.msg}); expected {SUPPORTED}") from None
            except RecursionError:
                raise _too_deep(path, number) from None
    return documents


def _too_deep(path: Path, line: int | None) -> ImportProblem:
    return ImportProblem(
        path, line, f"JSON nested more than {MAX_DEPTH} levels deep, deeper than any trace export; expected {SUPPORTED}"
    )


def looks_foreign(handle: BinaryIO) -> bool:
    """True for JSON that is not a loopscope trace (an export to convert); reads the open file's first
    lines. A loopscope trace, even a broken one or one missing its header, is left to the trace reader."""
    first = handle.readline(1 << 16).strip()
    second = handle.readline(1 << 16)
    if first[:1] not in (b"{", b"[") or b'"loopscope-trace"' in first:
        return False
    try:
        decoded = json.loads(first)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return True  # pretty-printed JSON (its first line is only the opening bracket), or one nested
        # too deeply for the json module: the importers read it and say what it is
    if isinstance(decoded, dict) and ("kind" in decoded or "format" in decoded):
        return False
    # A loopscope trace whose header line is damaged still has events after it.
    return b'"kind"' not in second or not isinstance(decoded, dict)


def _listed(documents: list[Any], *keys: str) -> list[Any]:
    """Documents that are a list, {"runs"/"data"/...: [...]}, or single objects, as one list."""
    items: list[Any] = []
    for document in documents:
        if isinstance(document, list):
            items += document
        elif isinstance(document, dict) and any(isinstance(document.get(k), list) for k in keys):
            items += next(document[k] for k in keys if isinstance(document.get(k), list))
        else:
            items.append(document)
    return items


def _describe(spans: list[Span]) -> str:
    llm = sum(s.role == LLM for s in spans)
    tool = sum(s.role == TOOL for s in spans)
    return f"{len(spans)} spans, {llm} LLM, {tool} tool"


def _unrecognised(path: Path, documents: list[Any]) -> ImportProblem:
    first = documents[0]
    if isinstance(first, dict):
        seen = "a JSON object with keys " + ", ".join(plain_name(str(key)) for key in list(first)[:6])
    elif isinstance(first, list):
        seen = f"a JSON list of {len(first)} item(s)"
    else:
        seen = f"a JSON {type(first).__name__}"
    return ImportProblem(path, None, f"not a loopscope trace or a known export: found {seen}; expected {SUPPORTED}")


def convert(path: str | os.PathLike[str], progress: Progress | None = None) -> Conversion:
    """Read another tool's trace file as loopscope events (ImportProblem when it is none of them).
    What has the wrong type (a list that is a string, a time that is no time) is left out and said in
    the warnings; the file is refused only when nothing in it can be read."""
    path = Path(path)
    report = progress or _quiet
    documents = _documents(path, report)
    source, notes = f"<{path.name}>", ShapeNotes()
    if all(otlp.is_otlp(d) for d in documents):
        raw = otlp.raw_spans(documents, notes)
        exact, not_events = otlp.loopscope_events(raw)
        if exact is not None:
            return Conversion(
                "otlp-json",
                f"OTLP JSON written by loopscope: {len(raw)} spans, {len(exact)} events kept exactly",
                exact,
                _said(notes),
            )
        if not_events:
            notes.add(
                f"{not_events} span event(s) carry {om.EVENT_JSON} that is no loopscope event "
                "(the spans are read by their attributes instead)"
            )
        spans = []
        for count, (where, found) in enumerate(raw):
            if count % _EVERY == 0:
                report("reading spans", count, len(raw))
            spans.append(otlp.span_from(where, found, notes))
        return _finish(path, "otlp-json", "OTLP JSON", spans, source, notes, report)
    runs = _listed(documents, "runs")
    if run_exports.is_langsmith(runs):
        return _finish(path, "langsmith", "LangSmith runs", run_exports.langsmith_spans(runs, notes), source, notes)
    traces = _listed(documents, "traces", "data")
    if run_exports.is_langfuse(traces):
        return _finish(path, "langfuse", "Langfuse trace", run_exports.langfuse_spans(traces, notes), source, notes)
    raise _unrecognised(path, documents)


def _said(notes: ShapeNotes) -> list[str]:
    warning = notes.warning()
    return [warning] if warning else []


def _finish(
    path: Path, fmt: str, label: str, spans: list[Span], source: str, notes: ShapeNotes, progress: Progress = _quiet
) -> Conversion:
    recognised = f"{label}: {_describe(spans)}"
    if not spans and notes.found:
        raise ImportProblem(path, None, f"recognised {label}, but could not read it: {notes.found[0]}")
    if not any(s.role in (LLM, TOOL) for s in spans):
        why = f"; {notes.found[0]}" if notes.found else ""
        raise ImportProblem(
            path,
            None,
            f"recognised {recognised}, but no span is a model or tool call "
            f"(OpenInference / OpenTelemetry GenAI attributes, run_type llm/tool){why}",
        )
    events, warnings = events_from_spans(spans, source, progress)
    return Conversion(fmt, recognised, events, _said(notes) + warnings)


def write_conversion(
    conversion: Conversion, source: Path, out: str | os.PathLike[str], progress: Progress | None = None
) -> Path:
    report, total = progress or _quiet, len(conversion.events)
    with TraceWriter(out, imported_from=str(source), import_format=conversion.format) as writer:
        for count, event in enumerate(conversion.events):
            if count % _EVERY == 0:
                report("writing events", count, total)
            writer(event)
    report("writing events", total, total)
    return Path(out)


def opened_as_loopscope(path: str | os.PathLike[str]) -> tuple[Path, Conversion]:
    """The file converted into a cached temporary loopscope trace (and what the conversion made of it)."""
    path = Path(path)
    conversion = convert(path)
    stamp = hashlib.sha256(f"{path.resolve()}:{path.stat().st_mtime_ns}".encode()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / "loopscope-imports" / f"{path.stem}-{stamp}.jsonl"
    return write_conversion(conversion, path, out), conversion
