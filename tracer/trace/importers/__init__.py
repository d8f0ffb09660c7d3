"""Other tools' traces (OTLP JSON, LangSmith and Langfuse exports) converted to loopscope traces, one per trace id."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from .. import otel_mapping as om
from ..format_error import TraceFormatError
from ..writer import TraceWriter
from . import otlp, otlp_stream
from .framework_spans import merge_emitter_events
from .langfuse import is_langfuse, langfuse_traces
from .langsmith import is_langsmith, langsmith_traces, merged_batches
from .run_events import events_from_spans
from .shape import MAX_DEPTH, ShapeNotes, loads, nested_deeper_than, quoted
from .spans import LLM, TOOL, Conversion, Span, TraceInfo, plain_name

SUPPORTED = "a loopscope trace (JSONL), OTLP JSON, a LangSmith run export or a Langfuse trace export"
# Exports other than OTLP JSON are parsed whole (~8x their size in memory): bigger ones are refused.
MAX_WHOLE_BYTES = 256 * 2**20
# OTLP JSON is read a span at a time, but every trace's spans are kept until the file's end (a
# trace's spans may be anywhere in it): about its size in memory.
MAX_OTLP_BYTES = 2 * 2**30
TRACE_LISTED = 8  # trace ids a one-line message names; the rest are counted


class ImportProblem(TraceFormatError):
    """A file no importer can read; the message is one line naming what was recognised."""


@dataclass
class Imported:
    """What an import made of a whole file: one conversion per trace id, in the file's order."""

    format: str
    label: str  # "OTLP JSON", "Langfuse trace", "LangSmith runs"
    conversions: list[Conversion] = field(default_factory=list)

    def described(self) -> str:
        """The traces as a one-line list: id (name), for messages."""
        shown = [
            quoted(c.trace_id or "?", 36) + (f" ({plain_name(c.name)})" if c.name else "")
            for c in self.conversions[:TRACE_LISTED]
        ]
        more = f" and {len(self.conversions) - TRACE_LISTED} more" if len(self.conversions) > TRACE_LISTED else ""
        return ", ".join(shown) + more


def _documents(path: Path) -> list[Any]:
    """The file's JSON: one document, or one per line (a collector's file exporter writes JSON lines)."""
    size = path.stat().st_size
    if size > MAX_WHOLE_BYTES:
        raise ImportProblem(
            path,
            None,
            f"the file is {size / 2**20:,.0f} MiB; exports other than OTLP JSON are read whole, up to "
            f"{MAX_WHOLE_BYTES // 2**20} MiB: split it, or export OTLP JSON (read a span at a time)",
        )
    text = path.read_text("utf-8", errors="replace").strip()
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


def convert_all(path: str | os.PathLike[str]) -> Imported:
    """Read another tool's trace file as loopscope events, one conversion per trace id (ImportProblem
    when it is none of the known exports). What has the wrong type (a list that is a string, a time
    that is no time) is left out and said in the warnings; the file is refused only when nothing in
    it can be read."""
    path = Path(path)
    if path.stat().st_size and otlp_stream.starts_as_otlp(path):
        return _otlp(path)
    documents = _documents(path)
    notes = ShapeNotes()
    if all(otlp.is_otlp(d) for d in documents):  # OTLP JSON whose first key is not resourceSpans
        return _otlp(path, documents)
    runs = merged_batches(documents) or _listed(documents, "runs")
    if is_langsmith(runs):
        return _finish(path, "langsmith", "LangSmith runs", langsmith_traces(runs, notes), notes)
    traces = _listed(documents, "traces", "data")
    if is_langfuse(traces):
        return _finish(path, "langfuse", "Langfuse trace", langfuse_traces(traces, notes), notes)
    raise _unrecognised(path, documents)


def _otlp(path: Path, documents: list[Any] | None = None) -> Imported:
    size = path.stat().st_size
    if size > MAX_OTLP_BYTES:
        raise ImportProblem(
            path, None, f"the file is {size / 2**30:,.1f} GiB, over the {MAX_OTLP_BYTES // 2**30} GiB an import reads"
        )
    notes = ShapeNotes()
    groups: dict[str | None, list[Span]] = {}
    exact: dict[str | None, list[Any]] = {}
    raw_spans = _raw_spans(path, documents, notes)
    try:
        for where, raw in raw_spans:
            span = otlp.span_from(where, raw, notes)
            groups.setdefault(span.trace_id, []).append(span)
            texts = otlp.event_texts(raw) if raw.get("events") else None
            if texts:
                exact.setdefault(span.trace_id, []).extend(texts)
    except otlp_stream.TooDeep as deep:
        raise _too_deep(path, deep.document if deep.document > 1 else None) from None
    except otlp_stream.NotJSON as bad:
        raise ImportProblem(path, bad.document if bad.document > 1 else None, f"not JSON ({bad.message})") from None
    if None in groups and len(groups) > 1:  # spans that name no trace join the first trace's
        loose = groups.pop(None)
        groups[next(iter(groups))] += loose
    found = _exactly(path, groups, exact, notes)
    if found is not None:
        return found
    traces = [(TraceInfo(trace_id=trace_id), spans) for trace_id, spans in groups.items()]
    return _finish(path, "otlp-json", "OTLP JSON", traces, notes)


def _raw_spans(path: Path, documents: list[Any] | None, notes: ShapeNotes):
    if documents is None:
        return otlp_stream.spans(path, notes)
    found = []
    for number, document in enumerate(documents, start=1):
        top = f"document {number}: resourceSpans" if len(documents) > 1 else "resourceSpans"
        for at_resource, resource in notes.objects(document.get("resourceSpans"), top):
            key = "scopeSpans" if "scopeSpans" in resource else "instrumentationLibrarySpans"
            for at_scope, scope in notes.objects(resource.get(key), f"{at_resource}.{key}"):
                for at_span, span in notes.objects(scope.get("spans"), f"{at_scope}.spans"):
                    span_id = span.get("spanId")
                    found.append((f"span {quoted(span_id)}" if isinstance(span_id, str) and span_id else at_span, span))
    return iter(found)


def _exactly(
    path: Path, groups: dict[str | None, list[Span]], exact: dict[str | None, list[Any]], notes: ShapeNotes
) -> Imported | None:
    """The exact events when loopscope itself exported the spans (each span event carries its JSON)."""
    if not exact:
        return None
    imported = Imported("otlp-json", "OTLP JSON")
    for trace_id, texts in exact.items():
        events, not_events = otlp.loopscope_events(texts)
        if events is None:
            notes.add(
                f"{not_events} span event(s) carry {om.EVENT_JSON} that is no loopscope event "
                "(the spans are read by their attributes instead)"
            )
            return None
        recognised = f"OTLP JSON written by loopscope: {len(groups[trace_id])} spans, {len(events)} events kept exactly"
        imported.conversions.append(Conversion("otlp-json", recognised, events, _said(notes), trace_id, None))
    return imported


def _said(notes: ShapeNotes) -> list[str]:
    warning = notes.warning()
    return [warning] if warning else []


def _finish(
    path: Path, fmt: str, label: str, traces: list[tuple[TraceInfo, list[Span]]], notes: ShapeNotes
) -> Imported:
    everything = [span for _info, spans in traces for span in spans]
    if not everything and notes.found:
        raise ImportProblem(path, None, f"recognised {label}, but could not read it: {notes.found[0]}")
    if not any(s.role in (LLM, TOOL) for s in everything):
        why = f"; {notes.found[0]}" if notes.found else ""
        raise ImportProblem(
            path,
            None,
            f"recognised {label}: {_describe(everything)}, but no span is a model or tool call "
            f"(OpenInference / OpenTelemetry GenAI attributes, run_type llm/tool){why}",
        )
    imported = Imported(fmt, label)
    source = f"<{path.name}>"
    for info, spans in traces:
        spans, merged = merge_emitter_events(spans)
        _trace_fields(info, spans)
        events, warnings, plain = events_from_spans(spans, source, info)
        recognised = f"{label}: {_describe(spans)}" + (
            f" ({merged} event spans merged into their calls)" if merged else ""
        )
        name = info.name or next((e.frames[0] for e in events[:1]), None)
        conversion = Conversion(fmt, recognised, events, _said(notes) + warnings, info.trace_id, name, plain)
        imported.conversions.append(conversion)
    return imported


def _trace_fields(info: TraceInfo, spans: list[Span]) -> None:
    """The session, user and tags the trace's spans name, where the trace itself names none."""
    for span in spans:
        for key, value in (span.trace_fields or {}).items():
            info.fields.setdefault(key, value)


def convert(path: str | os.PathLike[str], trace_id: str | None = None) -> Conversion:
    """One trace of another tool's file: the only one, or the one `trace_id` names (ImportProblem,
    listing the ids, when the file holds several and none is named, or the id is not there)."""
    imported = convert_all(path)
    return pick(Path(path), imported, trace_id)


def pick(path: Path, imported: Imported, trace_id: str | None) -> Conversion:
    conversions = imported.conversions
    if trace_id is not None:
        chosen = [c for c in conversions if c.trace_id == trace_id or (c.trace_id or "").startswith(trace_id)]
        if len(chosen) != 1:
            what = "no trace" if not chosen else f"{len(chosen)} traces"
            raise ImportProblem(path, None, f"{what} with id {quoted(trace_id)}; it holds {imported.described()}")
        return chosen[0]
    if len(conversions) > 1:
        raise ImportProblem(
            path,
            None,
            f"holds {len(conversions)} traces: {imported.described()}; pick one with --trace-id ID "
            "(or `loopscope import FILE -o FOLDER` writes each)",
        )
    return conversions[0]


def write_conversion(conversion: Conversion, source: Path, out: str | os.PathLike[str]) -> Path:
    meta: dict[str, Any] = {"imported_from": str(source), "import_format": conversion.format}
    if conversion.trace_id is not None:
        meta["imported_trace_id"] = conversion.trace_id
    with TraceWriter(out, **meta) as writer:
        for event in conversion.events:
            writer(event)
    return Path(out)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_names(conversions: list[Conversion]) -> list[str]:
    """A file name per trace a person can tell apart: the trace's name and the start of its id."""
    names: list[str] = []
    for index, conversion in enumerate(conversions, start=1):
        name = _UNSAFE.sub("-", conversion.name or "trace").strip("-.")[:40] or "trace"
        short = _UNSAFE.sub("", conversion.trace_id or "")[:12] or str(index)
        candidate = f"{name}-{short}"
        while f"{candidate}.jsonl" in names:
            candidate += f"-{index}"
        names.append(f"{candidate}.jsonl")
    return names


def opened_as_loopscope(path: str | os.PathLike[str], trace_id: str | None = None) -> tuple[Path, Conversion]:
    """The file's trace converted into a cached temporary loopscope trace (and what the conversion made of it)."""
    path = Path(path)
    conversion = convert(path, trace_id)
    key = f"{path.resolve()}:{path.stat().st_mtime_ns}:{conversion.trace_id}"
    stamp = hashlib.sha256(key.encode()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / "loopscope-imports" / f"{path.stem}-{stamp}.jsonl"
    return write_conversion(conversion, path, out), conversion
