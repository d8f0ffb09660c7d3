"""Other tools' traces (OTLP JSON, LangSmith and Langfuse exports) converted to loopscope traces."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

from ..reader import TraceFormatError
from ..writer import TraceWriter
from . import otlp, run_exports
from .spans import LLM, TOOL, Conversion, Span, events_from_spans

SUPPORTED = "a loopscope trace (JSONL), OTLP JSON, a LangSmith run export or a Langfuse trace export"


class ImportProblem(TraceFormatError):
    """A file no importer can read; the message is one line naming what was recognised."""


def _documents(path: Path) -> list[Any]:
    """The file's JSON: one document, or one per line (a collector's file exporter writes JSON lines)."""
    text = path.read_text("utf-8", errors="replace").strip()
    if not text:
        raise ImportProblem(path, None, "the file is empty")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass  # not one document: read it as JSON lines below
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                documents.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ImportProblem(path, number, f"not JSON ({error.msg}); expected {SUPPORTED}") from None
    return documents


def looks_foreign(handle: BinaryIO) -> bool:
    """True for JSON that is not a loopscope trace (an export to convert); reads the open file's first
    lines. A loopscope trace, even a broken one or one missing its header, is left to the trace reader."""
    first = handle.readline(1 << 16).strip()
    second = handle.readline(1 << 16)
    if not first[:1] in (b"{", b"[") or b'"loopscope-trace"' in first:
        return False
    try:
        decoded = json.loads(first)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return True  # pretty-printed JSON: its first line is only the opening bracket
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
        seen = "a JSON object with keys " + ", ".join(list(first)[:6])
    elif isinstance(first, list):
        seen = f"a JSON list of {len(first)} item(s)"
    else:
        seen = f"a JSON {type(first).__name__}"
    return ImportProblem(path, None, f"not a loopscope trace or a known export: found {seen}; expected {SUPPORTED}")


def convert(path: str | os.PathLike[str]) -> Conversion:
    """Read another tool's trace file as loopscope events (ImportProblem when it is none of them)."""
    path = Path(path)
    documents = _documents(path)
    source = f"<{path.name}>"
    if all(otlp.is_otlp(d) for d in documents):
        raw = otlp.raw_spans(documents)
        exact = otlp.loopscope_events(raw)
        if exact is not None:
            return Conversion("otlp-json", f"OTLP JSON written by loopscope: {len(raw)} spans, "
                              f"{len(exact)} events kept exactly", exact)
        spans = [otlp.span_from(s) for s in raw]
        return _finish(path, "otlp-json", "OTLP JSON", spans, source)
    runs = _listed(documents, "runs")
    if run_exports.is_langsmith(runs):
        return _finish(path, "langsmith", "LangSmith runs", run_exports.langsmith_spans(runs), source)
    traces = _listed(documents, "traces", "data")
    if run_exports.is_langfuse(traces):
        return _finish(path, "langfuse", "Langfuse trace", run_exports.langfuse_spans(traces), source)
    raise _unrecognised(path, documents)


def _finish(path: Path, fmt: str, label: str, spans: list[Span], source: str) -> Conversion:
    recognised = f"{label}: {_describe(spans)}"
    if not any(s.role in (LLM, TOOL) for s in spans):
        raise ImportProblem(path, None, f"recognised {recognised}, but no span is a model or tool call "
                                        "(OpenInference / OpenTelemetry GenAI attributes, run_type llm/tool)")
    events, warnings = events_from_spans(spans, source)
    return Conversion(fmt, recognised, events, warnings)


def write_conversion(conversion: Conversion, source: Path, out: str | os.PathLike[str]) -> Path:
    with TraceWriter(out, imported_from=str(source), import_format=conversion.format) as writer:
        for event in conversion.events:
            writer(event)
    return Path(out)


def opened_as_loopscope(path: str | os.PathLike[str]) -> tuple[Path, Conversion | None]:
    """The file converted into a cached temporary loopscope trace (and what the conversion made of it)."""
    path = Path(path)
    conversion = convert(path)
    stamp = hashlib.sha256(f"{path.resolve()}:{path.stat().st_mtime_ns}".encode()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / "loopscope-imports" / f"{path.stem}-{stamp}.jsonl"
    return write_conversion(conversion, path, out), conversion
