"""OTLP JSON written a span at a time: events read one by one, each span encoded and written as it ends, never the whole document in memory."""

from __future__ import annotations

import base64
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from ...extras import missing_extra
from ...trace import otel_mapping as om
from ...trace.literal_text import escape_controls_in_json
from ...trace.reader import TraceFile
from ...trace.redact import Redactor, default_redactor
from .export import _provider
from .spans import SpanBuilder

try:
    from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise missing_extra("otel", "OTLP export", missing) from None

# A string longer than this is written a slice at a time, and a span holding one part by part, so a
# 100 MB observation is never copied whole again as JSON text; a smaller span goes in one json.dumps.
STRING_SLICE = 1 << 20
_HAS_IS_REMOTE, _IS_REMOTE = 0x100, 0x200  # OTLP SpanFlags, as the SDK's encoder sets them


def any_value(value: Any) -> dict[str, Any]:
    """An attribute value as OTLP JSON's AnyValue, as protobuf's MessageToDict writes it."""
    if value is None:
        return {}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value if math.isfinite(value) else ("NaN" if math.isnan(value) else _inf(value))}
    if isinstance(value, bytes):
        return {"bytesValue": base64.b64encode(value).decode("ascii")}
    if isinstance(value, Sequence):
        values = [any_value(item) for item in value]
        return {"arrayValue": {"values": values} if values else {}}
    if isinstance(value, Mapping):
        pairs = attributes(value)
        return {"kvlistValue": {"values": pairs} if pairs else {}}
    raise TypeError(f"an attribute of type {type(value).__name__} has no OTLP encoding")


def _inf(value: float) -> str:
    return "Infinity" if value > 0 else "-Infinity"


def attributes(pairs: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    return [{"key": str(key), "value": any_value(value)} for key, value in (pairs or {}).items()]


def _flags(parent: Any) -> int:
    return _HAS_IS_REMOTE | (_IS_REMOTE if parent is not None and parent.is_remote else 0)


def span_json(span: ReadableSpan) -> dict[str, Any]:
    """One span as OTLP JSON: what wire.otlp_json writes for it (protobuf's field order, defaults left out)."""
    context = span.get_span_context()
    assert context is not None  # every span the SDK ends has one
    found: dict[str, Any] = {"traceId": f"{context.trace_id:032x}", "spanId": f"{context.span_id:016x}"}
    if context.trace_state:
        found["traceState"] = ",".join(f"{key}={value}" for key, value in context.trace_state.items())
    if span.parent is not None:
        found["parentSpanId"] = f"{span.parent.span_id:016x}"
    if span.name:
        found["name"] = span.name
    found["kind"] = span.kind.value + 1  # the SDK's INTERNAL is 0, OTLP's SPAN_KIND_INTERNAL is 1
    for key, value in (("startTimeUnixNano", span.start_time), ("endTimeUnixNano", span.end_time)):
        if value:
            found[key] = str(value)
    if span.attributes:
        found["attributes"] = attributes(span.attributes)
    _count(found, "droppedAttributesCount", span.dropped_attributes)
    if span.events:
        found["events"] = [_event(event) for event in span.events]
    _count(found, "droppedEventsCount", span.dropped_events)
    if span.links:
        found["links"] = [_link(link) for link in span.links]
    _count(found, "droppedLinksCount", span.dropped_links)
    status: dict[str, Any] = {}
    if span.status.status_code.value:
        status["code"] = span.status.status_code.value
    if span.status.description:
        status["message"] = span.status.description
    found["status"] = status
    found["flags"] = _flags(span.parent)
    return found


def _count(found: dict[str, Any], key: str, value: int) -> None:
    if value:
        found[key] = value


def _event(event: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if event.timestamp:
        found["timeUnixNano"] = str(event.timestamp)
    if event.name:
        found["name"] = event.name
    if event.attributes:
        found["attributes"] = attributes(event.attributes)
    _count(found, "droppedAttributesCount", getattr(event, "dropped_attributes", 0))
    return found


def _link(link: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"traceId": f"{link.context.trace_id:032x}", "spanId": f"{link.context.span_id:016x}"}
    if link.attributes:
        found["attributes"] = attributes(link.attributes)
    _count(found, "droppedAttributesCount", link.dropped_attributes)
    found["flags"] = _flags(link.context)
    return found


def _scope_json(scope: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if scope is not None and scope.name:
        found["name"] = scope.name
    if scope is not None and scope.version:
        found["version"] = scope.version
    if scope is not None and scope.attributes:
        found["attributes"] = attributes(scope.attributes)
    return found


class OTLPJSONWriter:
    """Writes `{"resourceSpans": [...]}` to `out` one span at a time; spans of one resource and scope
    share one resourceSpans entry (a new entry opens when they change). Call close() at the end."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.spans = out, 0
        self._block: tuple[Any, Any] | None = None
        self._first_in_block = True

    def write(self, span: ReadableSpan) -> None:
        block = (span.resource, span.instrumentation_scope)
        if block != self._block:
            self._open(*block)
        self.out.write("\n" if self._first_in_block else ",\n")
        self._first_in_block = False
        _dump(span_json(span), self.out)
        self.spans += 1

    def _open(self, resource: Any, scope: Any) -> None:
        self.out.write('{"resourceSpans": [\n' if self._block is None else "\n]}]},\n")
        scope_spans: dict[str, Any] = {"scope": _scope_json(scope)}
        if scope is not None and scope.schema_url:
            scope_spans["schemaUrl"] = scope.schema_url
        entry: dict[str, Any] = {"resource": {"attributes": attributes(resource.attributes)}}
        if resource.schema_url:
            entry["schemaUrl"] = resource.schema_url
        entry["scopeSpans"] = [{**scope_spans, "spans": []}]  # last, so the spans' list closes with "]}]}"
        head = json.dumps(entry, ensure_ascii=False).removesuffix("[]}]}")
        self.out.write(escape_controls_in_json(head) + "[")
        self._block, self._first_in_block = (resource, scope), True

    def close(self) -> None:
        self.out.write("{}\n" if self._block is None else "\n]}]}\n]}\n")  # no spans: {} as otlp_json([]) is


def _dump(value: Any, out: TextIO) -> None:
    """`value` as JSON on `out`, a long string a slice at a time: json.dumps of a span with a 100 MB
    observation would make the whole escaped text, then its terminal-safe copy, then its UTF-8 bytes."""
    if isinstance(value, str) and len(value) > STRING_SLICE:
        out.write('"')
        for start in range(0, len(value), STRING_SLICE):  # escapes are per character: slices join up
            out.write(_safe(json.dumps(value[start : start + STRING_SLICE], ensure_ascii=False)[1:-1]))
        out.write('"')
    elif isinstance(value, dict) and _chars(value) > STRING_SLICE:
        out.write("{")
        for number, (key, item) in enumerate(value.items()):
            out.write(("," if number else "") + _safe(json.dumps(key, ensure_ascii=False)) + ":")
            _dump(item, out)
        out.write("}")
    elif isinstance(value, list) and _chars(value) > STRING_SLICE:
        out.write("[")
        for number, item in enumerate(value):
            out.write("," if number else "")
            _dump(item, out)
        out.write("]")
    else:
        out.write(_safe(json.dumps(value, ensure_ascii=False)))


def _safe(text: str) -> str:
    # Perhaps to a terminal: what scrub() would show is written as \u escapes, the same JSON value.
    return escape_controls_in_json(text)


def _chars(value: Any) -> int:
    """About how long `value` is as JSON (its strings' lengths), to tell a span worth slicing."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_chars(item) for item in value.values())
    if isinstance(value, list):
        return sum(_chars(item) for item in value)
    return 8


class _WriteEachSpan(SpanProcessor):
    """Hands each span to the writer as it ends (the SDK's SimpleSpanProcessor would swallow a full disk)."""

    def __init__(self, write: Callable[[ReadableSpan], None]) -> None:
        self.write = write

    def on_end(self, span: ReadableSpan) -> None:
        self.write(span)


def write_otlp_json(
    paths: Iterable[str | os.PathLike[str]],
    out: TextIO,
    redactor: Redactor | None = None,
    opened: Callable[[TraceFile], None] | None = None,
) -> int:
    """Every trace's spans as one OTLP JSON document on `out`; the number of spans. Times as spans_of
    gives them (the last event at the file's modification time). `opened` sees each trace when opened
    (for its warning). Memory: the spans still open and the event being read, not the whole trace."""
    writer = OTLPJSONWriter(out)
    for path in paths:
        with TraceFile(path) as trace:
            if opened is not None:
                opened(trace)
            start_ns = None
            if len(trace):
                # Not before 1970: a trace whose t counts from 0 to a date would start at a negative time.
                start_ns = max(0, os.stat(trace.path).st_mtime_ns - int(trace.decoded(len(trace) - 1).t * 1e9))
            provider = _provider(om.SERVICE_NAME, _WriteEachSpan(writer.write))
            builder = SpanBuilder(
                provider.get_tracer(om.SCOPE_NAME),
                redactor or default_redactor(),
                start_ns,
                agent_name=trace.header.scenario or trace.header.agent,
                scenario=trace.header.scenario,
                agent=trace.header.agent,
            )
            for event in trace.each():
                builder(event)
            builder.finish()
            provider.shutdown()
    writer.close()
    return writer.spans
