"""Another tool's trace file read into traces of neutral spans: OTLP JSON a span at a time, the other exports whole."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import otel_mapping as om
from . import otlp, otlp_stream
from .imported import Imported, ImportProblem, PendingTrace
from .langfuse import is_langfuse, langfuse_traces
from .langsmith import is_langsmith, langsmith_traces, merged_batches
from .shape import MAX_DEPTH, ShapeNotes, loads, nested_deeper_than, quoted
from .spans import LLM, TOOL, Conversion, Span, TraceInfo, plain_name

SUPPORTED = "a loopscope trace (JSONL), OTLP JSON, a LangSmith run export or a Langfuse trace export"
# Exports other than OTLP JSON are parsed whole (several times their size in memory): bigger ones are refused.
MAX_WHOLE_BYTES = 256 * 2**20
# OTLP JSON is read a span at a time, but every trace's spans are kept until the file's end (a
# trace's spans may be anywhere in it): about the file's size in memory.
MAX_OTLP_BYTES = 2 * 2**30


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
    text = path.read_text("utf-8-sig", errors="replace").strip()  # -sig: a byte order mark (Windows tools) goes
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


def _unrecognised(path: Path, documents: list[Any]) -> ImportProblem:
    first = documents[0]
    if isinstance(first, dict):
        seen = "a JSON object with keys " + ", ".join(plain_name(str(key)) for key in list(first)[:6])
    elif isinstance(first, list):
        seen = f"a JSON list of {len(first)} item(s)"
    else:
        seen = f"a JSON {type(first).__name__}"
    return ImportProblem(path, None, f"not a loopscope trace or a known export: found {seen}; expected {SUPPORTED}")


def read(path: Path, progress: Callable[[str, int, int], None] | None = None) -> Imported:
    """Read another tool's trace file as loopscope events, one conversion per trace id (ImportProblem
    when it is none of the known exports). What has the wrong type (a list that is a string, a time
    that is no time) is left out and said in the warnings; the file is refused only when nothing in
    it can be read. `progress` hears how far an OTLP file is read (the other exports are parsed whole)."""
    if path.stat().st_size and otlp_stream.starts_as_otlp(path):
        return _otlp(path, progress=progress)
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


def refuse_too_big(path: Path) -> None:
    """An OTLP JSON file over what an import reads, refused before it is read."""
    size = path.stat().st_size
    if size > MAX_OTLP_BYTES:
        raise ImportProblem(
            path, None, f"the file is {size / 2**30:,.1f} GiB, over the {MAX_OTLP_BYTES // 2**30} GiB an import reads"
        )


@contextmanager
def reading_otlp(path: Path) -> Iterator[None]:
    """While OTLP JSON is walked: the collector off, and a file that is not JSON or nests too deep one ImportProblem."""
    collecting = gc.isenabled()
    # The spans kept until the end hold no cycles: the collector's full passes over a heap growing
    # to 50,000 spans were a quarter of an import's time, and find nothing.
    gc.disable()
    try:
        yield
    except otlp_stream.TooDeep as deep:
        raise _too_deep(path, deep.document if deep.document > 1 else None) from None
    except otlp_stream.NotJSON as bad:
        raise ImportProblem(path, bad.document if bad.document > 1 else None, f"not JSON ({bad.message})") from None
    finally:
        if collecting:
            gc.enable()


def _otlp(
    path: Path, documents: list[Any] | None = None, progress: Callable[[str, int, int], None] | None = None
) -> Imported:
    refuse_too_big(path)
    notes = ShapeNotes()
    groups: dict[str | None, list[Span]] = {}
    exact: dict[str | None, list[Any]] = {}
    named: dict[str | None, dict[str, str]] = {}  # per trace: the scenario / agent loopscope's export named
    logs: list[tuple[str, dict[str, Any]]] = []  # a logs pipeline's records: events of the spans they name
    with reading_otlp(path):
        for where, raw in _raw_spans(path, documents, notes, progress, logs):
            span = otlp.span_from(where, raw, notes)
            groups.setdefault(span.trace_id, []).append(span)
            texts = otlp.event_texts(raw) if raw.get("events") else None
            if texts:
                exact.setdefault(span.trace_id, []).extend(texts)
                if span.parent_id is None:
                    named[span.trace_id] = _named(raw, where, notes)
    if logs:
        otlp.attach_log_events(groups, logs, notes)
    join_loose_spans(groups)
    found = _exactly(path, groups, exact, notes, named)
    if found is not None:
        return found
    traces = [(TraceInfo(trace_id=trace_id), spans) for trace_id, spans in groups.items()]
    return _finish(path, "otlp-json", "OTLP JSON", traces, notes)


def join_loose_spans(groups: dict[str | None, list[Span]]) -> None:
    """Spans that name no trace join the first trace's, when there is one."""
    if None in groups and len(groups) > 1:
        loose = groups.pop(None)
        groups[next(iter(groups))] += loose


def _raw_spans(
    path: Path,
    documents: list[Any] | None,
    notes: ShapeNotes,
    progress: Callable[[str, int, int], None] | None,
    logs: list[tuple[str, dict[str, Any]]],
):
    if documents is None:
        return otlp_stream.spans(path, notes, progress, logs)
    found = []
    for number, document in enumerate(documents, start=1):
        if "resourceLogs" in document:
            logs += otlp_stream.log_records(document["resourceLogs"], f"document {number}: resourceLogs", notes)
        if "resourceSpans" not in document:
            continue
        top = f"document {number}: resourceSpans" if len(documents) > 1 else "resourceSpans"
        for at_resource, resource in notes.objects(document.get("resourceSpans"), top):
            key = "scopeSpans" if "scopeSpans" in resource else "instrumentationLibrarySpans"
            for at_scope, scope in notes.objects(resource.get(key), f"{at_resource}.{key}"):
                for at_span, span in notes.objects(scope.get("spans"), f"{at_scope}.spans"):
                    span_id = span.get("spanId")
                    found.append((f"span {quoted(span_id)}" if isinstance(span_id, str) and span_id else at_span, span))
    return iter(found)


def _named(raw: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, str]:
    """The scenario and agent a loopscope export's root span names (its trace header's words)."""
    attrs = otlp.attributes(raw.get("attributes"), where, notes, ": attributes")
    keys = (("scenario", om.SCENARIO), ("agent", om.AGENT_SPEC))
    return {field: value for field, key in keys if isinstance(value := attrs.get(key), str) and value.strip()}


def _exactly(
    path: Path,
    groups: dict[str | None, list[Span]],
    exact: dict[str | None, list[Any]],
    notes: ShapeNotes,
    named: dict[str | None, dict[str, str]],
) -> Imported | None:
    """The exact events when loopscope itself exported the spans (each span event carries its JSON)."""
    if not exact:
        return None
    imported = Imported(path, "otlp-json", "OTLP JSON")
    for trace_id, texts in exact.items():
        events, not_events = otlp.loopscope_events(texts)
        if events is None:
            notes.add(
                f"{not_events} span event(s) carry {om.EVENT_JSON} that is no loopscope event "
                "(the spans are read by their attributes instead)"
            )
            return None
        recognised = f"OTLP JSON written by loopscope: {len(groups[trace_id])} spans, {len(events)} events kept exactly"
        started = min((span.start for span in groups[trace_id] if span.start is not None), default=None)
        header = named.get(trace_id, {})
        name = header.get("scenario") or header.get("agent")
        conversion = Conversion(
            "otlp-json", recognised, events, said(notes), trace_id, name, started=started, header=header
        )
        imported.traces.append(PendingTrace(TraceInfo(trace_id=trace_id), conversion=conversion))
    return imported


def said(notes: ShapeNotes) -> list[str]:
    """The one warning a file's unreadable parts make (none when every part was read)."""
    warning = notes.warning()
    return [warning] if warning else []


def refuse_unreadable(path: Path, label: str, spans: int, llm: int, tool: int, notes: ShapeNotes) -> None:
    """A file of which nothing could be read, or with no model or tool call among its spans, refused in one line."""
    if not spans and notes.found:
        raise ImportProblem(path, None, f"recognised {label}, but could not read it: {notes.found[0]}")
    if not llm and not tool:
        why = f"; {notes.found[0]}" if notes.found else ""
        raise ImportProblem(
            path,
            None,
            f"recognised {label}: {spans} spans, {llm} LLM, {tool} tool, but no span is a model or tool call "
            f"(OpenInference / OpenTelemetry GenAI attributes, run_type llm/tool){why}",
        )


def _finish(
    path: Path, fmt: str, label: str, traces: list[tuple[TraceInfo, list[Span]]], notes: ShapeNotes
) -> Imported:
    everything = [span for _info, spans in traces for span in spans]
    llm, tool = sum(s.role == LLM for s in everything), sum(s.role == TOOL for s in everything)
    refuse_unreadable(path, label, len(everything), llm, tool, notes)
    imported = Imported(path, fmt, label, said(notes))
    imported.traces = [PendingTrace(info, spans) for info, spans in traces]
    return imported
