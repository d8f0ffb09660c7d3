"""`import --phoenix`: a Phoenix server's spans turned into the OTLP JSON the file importer reads, one trace per trace id."""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..annotations import Score, append_score
from .folder import FolderImport, Written, written_one_by_one
from .imported import Imported
from .otlp import event_texts, loopscope_events
from .phoenix_client import PhoenixClient, PhoenixError, PhoenixSource
from .reading import read
from .scores import phoenix_scores

Progress = Callable[[str, int, int], None]
SPAN_KIND = "openinference.span.kind"  # Phoenix gives it as the span's span_kind, not as an attribute
STATUS_CODES = {"UNSET": 0, "OK": 1, "ERROR": 2}
INTERNAL = 1  # OTLP's SpanKind: Phoenix does not keep the span's own, OpenInference's is what is read


def any_value(value: Any) -> dict[str, Any]:
    """A JSON value as OTLP JSON's AnyValue."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    if isinstance(value, dict):
        return {"stringValue": json.dumps(value, ensure_ascii=False)}
    return {"stringValue": "" if value is None else str(value)}


def flattened(attributes: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Dotted keys, as OpenInference writes them: Phoenix answers flat keys, but a nested mapping
    (`{"llm": {"input_messages": [{"message": {...}}]}}`) means the same and is read the same."""
    for key, value in attributes.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from flattened(value, f"{name}.")
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for index, item in enumerate(value):
                yield from flattened(item, f"{name}.{index}.")
        else:
            yield name, value


def nanos(stamp: Any) -> str:
    """An ISO 8601 time (Phoenix's start_time) as OTLP's unix nanoseconds; "0" when it is none."""
    if not isinstance(stamp, str):
        return "0"
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return "0"  # the importer says the span has no time
    seconds = int(moment.timestamp())
    return str(seconds * 1_000_000_000 + moment.microsecond * 1_000)


def _attributes(found: Any) -> list[dict[str, Any]]:
    items = flattened(found) if isinstance(found, dict) else iter(())
    return [{"key": key, "value": any_value(value)} for key, value in items]


def otlp_span(span: dict[str, Any]) -> dict[str, Any]:
    """One span of Phoenix's REST answer as an OTLP JSON span."""
    found_context, found_attributes = span.get("context"), span.get("attributes")
    context: dict[str, Any] = found_context if isinstance(found_context, dict) else {}
    attributes: dict[str, Any] = dict(found_attributes) if isinstance(found_attributes, dict) else {}
    kind = span.get("span_kind")
    if isinstance(kind, str) and kind not in ("", "UNKNOWN") and SPAN_KIND not in attributes:
        attributes[SPAN_KIND] = kind
    events = [e for e in span.get("events") or [] if isinstance(e, dict)]
    status = span.get("status_code")
    return {
        "traceId": str(context.get("trace_id") or ""),
        "spanId": str(context.get("span_id") or ""),
        "parentSpanId": str(span.get("parent_id") or ""),
        "name": str(span.get("name") or ""),
        "kind": INTERNAL,
        "startTimeUnixNano": nanos(span.get("start_time")),
        "endTimeUnixNano": nanos(span.get("end_time")),
        "attributes": _attributes(attributes),
        "events": [
            {
                "name": str(e.get("name") or ""),
                "timeUnixNano": nanos(e.get("timestamp")),
                "attributes": _attributes(e.get("attributes")),
            }
            for e in events
        ],
        "status": {"code": STATUS_CODES.get(str(status), 0), "message": str(span.get("status_message") or "")},
    }


def otlp_document(spans: list[dict[str, Any]], project: str) -> dict[str, Any]:
    """The spans as one OTLP JSON document, what a collector's file exporter writes."""
    resource = {"attributes": [{"key": "openinference.project.name", "value": {"stringValue": project}}]}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": [otlp_span(s) for s in spans]}]}]}


def _trace_of(span: dict[str, Any]) -> str:
    context = span.get("context")
    return str(context.get("trace_id") or "") if isinstance(context, dict) else ""


def pulled_spans(client: PhoenixClient, progress: Progress | None = None) -> list[dict[str, Any]]:
    """Every span asked for; with the start of a trace id, only that trace's."""
    spans: list[dict[str, Any]] = []
    for page in client.spans():
        spans.extend(page)
        if progress is not None:
            progress("pulling spans", len(spans), 0)
    wanted = client.source.trace_id
    if wanted:
        spans = [span for span in spans if _trace_of(span).startswith(wanted)]
    return spans


@dataclass
class PulledScores:
    """Phoenix's annotations as scores: each trace's own (its trace annotations and its root span's, where
    Phoenix's evals put them), and those given to one of its other spans (raw, by span id), which belong
    to the event that span becomes."""

    of_trace: dict[str, list[Score]] = field(default_factory=dict)
    of_span: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def pulled_scores(client: PhoenixClient, spans: list[dict[str, Any]]) -> PulledScores:
    trace_ids = sorted({_trace_of(span) for span in spans} - {""})
    trace_of_span = {
        str(span["context"].get("span_id")): _trace_of(span) for span in spans if isinstance(span.get("context"), dict)
    }
    roots = {str(span["context"].get("span_id")) for span in spans if not span.get("parent_id")} & set(trace_of_span)
    by_trace: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    by_span: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in client.annotations("trace", trace_ids):
        by_trace[str(item.get("trace_id"))].append(item)
    for item in client.annotations("span", sorted(trace_of_span)):
        span_id = str(item.get("span_id"))
        if span_id in roots:
            by_trace[trace_of_span[span_id]].append(item)
        elif span_id in trace_of_span:
            by_span[span_id].append(item)
    return PulledScores({trace: phoenix_scores(items) for trace, items in by_trace.items()}, dict(by_span))


def _last_event_seqs(spans: list[dict[str, Any]], wanted: set[str]) -> dict[str, dict[str, int]]:
    """trace id -> {span id: the seq of the last loopscope event the span carries (its call's end)}, for
    the `wanted` spans loopscope itself exported (their events are read exactly, not rebuilt from spans)."""
    found: defaultdict[str, dict[str, int]] = defaultdict(dict)
    for span in spans:
        span_id = str(span["context"].get("span_id")) if isinstance(span.get("context"), dict) else ""
        if span_id in wanted:
            events, _not_events = loopscope_events(event_texts(otlp_span(span)))
            if events:
                found[_trace_of(span)][span_id] = events[-1].seq
    return dict(found)


def _given_to_spans(
    imported: Imported, of_span: dict[str, list[dict[str, Any]]], ends: dict[str, dict[str, int]]
) -> None:
    """Each span's annotations tied to the event the span becomes: handed to the importer with the span,
    or, where the events were kept exactly, to the last event the span carried."""
    imported.scorer = phoenix_scores
    for trace in imported.traces:
        if trace.conversion is not None:
            for span_id, seq in ends.get(trace.info.trace_id or "", {}).items():
                trace.conversion.scores += [replace(s, event=seq) for s in phoenix_scores(of_span[span_id])]
            trace.conversion.scores.sort(key=lambda score: score.event or 0)
        for span in trace.spans or ():
            span.scores = of_span.get(span.span_id) or span.scores


def import_from_phoenix(source: PhoenixSource, folder: Path, progress: Progress | None = None) -> FolderImport:
    """Pull the spans (PhoenixError, one line, when the server cannot be read or has none), and write each
    trace into `folder` as `written` is iterated, exactly as importing the spans from an OTLP JSON file would."""
    client = PhoenixClient(source)
    spans = pulled_spans(client, progress)
    if not spans:
        asked = f" trace {source.trace_id!r}" if source.trace_id else ""
        since = f" since {source.since.isoformat()}" if source.since else ""
        raise PhoenixError(f"project {source.project!r} at {client.base} has no spans{asked}{since}")
    scores = pulled_scores(client, spans)
    staging = tempfile.TemporaryDirectory(prefix="loopscope-phoenix-")
    pulled = Path(staging.name) / f"phoenix-{''.join(c if c.isalnum() else '-' for c in source.project)[:40]}.json"
    pulled.write_text(json.dumps(otlp_document(spans, source.project), ensure_ascii=False), encoding="utf-8")
    ends = _last_event_seqs(spans, set(scores.of_span))
    del spans
    imported = read(pulled, progress)
    _given_to_spans(imported, scores.of_span, ends)
    return FolderImport("Phoenix spans", len(imported), _written(imported, folder, scores.of_trace, staging))


def _written(
    imported: Any, folder: Path, scores: dict[str, list[Score]], staging: tempfile.TemporaryDirectory[str]
) -> Iterator[Written]:
    with staging:  # the pulled spans are removed when the last trace is written (or the import stops)
        for written in written_one_by_one(imported, folder):
            for score in scores.get(written.trace_id or "", []):
                append_score(written.path, score)
            yield written
