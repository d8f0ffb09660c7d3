"""OTLP JSON (a collector's file exporter, Phoenix, Langfuse) read as spans: OpenInference and GenAI conventions."""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import ValidationError

from executor.events import EVENT_ADAPTER, EventBase, event_from_json

from .. import otel_mapping as om
from .flattened_keys import indexed
from .framework_spans import is_tool_message, tool_message_fields
from .message_events import SpanEvents
from .messages import json_or_text
from .model_call_attributes import messages_from_events, model_from, reply_from, request_from, usage_from
from .shape import ShapeNotes, identifier, name_text, parsed_json
from .span_attributes import (
    TOOL_INPUT_KEYS,
    TOOL_OUTPUT_KEYS,
    first_of,
    role_of_span,
    tool_call_id_from,
    tool_name_from,
    trace_fields_from,
)
from .spans import LLM, TOOL, Span, text_of

ERROR_CODES = (2, "STATUS_CODE_ERROR")
# Where pydantic-ai's tool spans keep the call's arguments (its GenAI form; its version 1 form).
PYDANTIC_AI_ARGUMENTS = ("gen_ai.tool.call.arguments", "tool_arguments")


def is_otlp(document: Any) -> bool:
    return isinstance(document, dict) and ("resourceSpans" in document or "resourceLogs" in document)


# What OTLP JSON writes a 64-bit int as: a string of digits (kept as text when it is not one).
_INT_TEXT = re.compile(r"-?[0-9]{1,20}")


def _value(value: Any) -> Any:
    """An OTLP AnyValue as a Python value; one of another shape is kept as it is (shown as JSON)."""
    if not isinstance(value, dict):
        return value
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        number = value["intValue"]  # 64-bit ints are strings in OTLP JSON
        return int(number) if isinstance(number, str) and _INT_TEXT.fullmatch(number) else number
    for key, read in (("arrayValue", _array), ("kvlistValue", _kvlist)):
        if key in value:
            inner = value[key]
            values = inner.get("values", []) if isinstance(inner, dict) else None
            return read(values) if isinstance(values, list) else inner
    return None


def _array(values: list[Any]) -> list[Any]:
    return [_value(v) for v in values]


def _kvlist(values: list[Any]) -> Any:
    if all(isinstance(pair, dict) and isinstance(pair.get("key"), str) for pair in values):
        return {pair["key"]: _value(pair.get("value")) for pair in values}
    return values  # not key/value pairs: kept as they are


def attributes(pairs: Any, where: str, notes: ShapeNotes, part: str = "") -> dict[str, Any]:
    """A span's (or span event's) attributes by key; pairs that are not {"key": text, ...} are noted
    (at `where` + `part`: the two are joined only then, as this runs for every span of the file)."""
    found = {}
    if type(pairs) is not list:
        pairs = notes.items(pairs, where + part)
    for index, pair in enumerate(pairs):
        key = pair.get("key") if type(pair) is dict else None
        if type(key) is str:
            value = pair.get("value")
            # Most values are strings: taken at once (this loop runs for every attribute of the file).
            found[key] = value["stringValue"] if type(value) is dict and "stringValue" in value else _value(value)
        else:
            notes.note(f"{where}{part}[{index}]", pair, 'an attribute ({"key": name, "value": ...})')
    return found


# OTLP times are unsigned 64-bit nanoseconds; 0 means "not set".
_MAX_NANOS = 2**64


def _seconds(nanos: Any, where: str, notes: ShapeNotes, part: str = "") -> float | None:
    """Seconds since 1970 from OTLP nanoseconds (a string of digits, or a number); None when missing
    or not a time ("abc", -5, 1e400, more than 64 bits: noted at `where` + `part`)."""
    if nanos in (None, "", 0, "0"):
        return None
    if isinstance(nanos, str) and nanos.isascii() and nanos.isdigit() and len(nanos) <= 20:
        number: Any = int(nanos)
    elif isinstance(nanos, float) and math.isfinite(nanos) and nanos.is_integer():
        number = int(nanos)
    else:
        number = nanos
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number < _MAX_NANOS:
        return number / 1e9
    notes.note(where + part, nanos, "a time (nanoseconds since 1970)")
    return None


def _error(
    raw: dict[str, Any], attrs: dict[str, Any], events: SpanEvents, where: str, notes: ShapeNotes
) -> tuple[str, str] | None:
    for name, found in events:
        if name == "exception":
            return (str(found.get("exception.type", "Error")), text_of(found.get("exception.message", "")))
    status = raw.get("status")
    if type(status) is not dict:
        status = notes.mapping(status, f"{where}: status")
    if status.get("code") in ERROR_CODES:
        return (
            str(attrs.get("exception.type", attrs.get("error.type", "Error"))),
            text_of(attrs.get("exception.message", status.get("message", ""))),
        )
    return None


def _span_events(raw: dict[str, Any], where: str, notes: ShapeNotes) -> SpanEvents:
    if raw.get("events") is None:  # most spans
        return []
    return [
        (_text_or_empty(event.get("name")), attributes(event.get("attributes"), f"{at}.attributes", notes))
        for at, event in notes.objects(raw.get("events"), f"{where}: events")
    ]


def _text_or_empty(value: Any) -> str:
    return value if isinstance(value, str) else ""


def span_from(where: str, raw: dict[str, Any], notes: ShapeNotes) -> Span:
    """One OTLP span as a neutral Span: a model call, a tool call or a plain frame, by its attributes."""
    attrs = attributes(raw.get("attributes"), where, notes, ": attributes")
    events = _span_events(raw, where, notes)
    role = role_of_span(attrs)
    span = Span(
        span_id=identifier(raw.get("spanId")) or where,
        parent_id=identifier(raw.get("parentSpanId")),
        name=name_text(raw.get("name"), "span"),
        role=role,
        start=_seconds(raw.get("startTimeUnixNano"), where, notes, ": startTimeUnixNano"),
        end=_seconds(raw.get("endTimeUnixNano"), where, notes, ": endTimeUnixNano"),
        trace_id=identifier(raw.get("traceId")),
        error=_error(raw, attrs, events, where, notes),
        trace_fields=trace_fields_from(attrs) or None,
    )
    fill_span(span, attrs, events, where, notes)
    return span


def fill_span(span: Span, attrs: dict[str, Any], events: SpanEvents, where: str, notes: ShapeNotes) -> None:
    """A span's model call, tool call or chain fields, from its attributes (OTLP's, or those Langfuse kept)."""
    if span.role == LLM:
        groups = indexed(attrs)
        span.model = model_from(attrs)
        span.request = request_from(attrs, events, groups)
        span.reply = reply_from(attrs, events, groups)
        span.usage = usage_from(attrs, where, notes)
    elif span.role == TOOL:
        span.name = tool_name_from(attrs, span.name)
        span.tool_call_id = tool_call_id_from(attrs)
        span.inputs = json_or_text(first_of(attrs, TOOL_INPUT_KEYS))
        if "logfire.msg" in attrs:  # pydantic-ai's: the arguments as it also renders them to the model
            given = first_of(attrs, PYDANTIC_AI_ARGUMENTS)
            span.sent_arguments = given if isinstance(given, str) else None
        span.output = json_or_text(first_of(attrs, TOOL_OUTPUT_KEYS))
        if is_tool_message(span.output):  # a LangChain tool's ToolMessage (OpenInference): its content
            content, call_id, failed = tool_message_fields(span.output)
            span.output, span.tool_call_id = content, span.tool_call_id or call_id
            span.error = span.error or (("ToolError", content) if failed else None)
    else:
        span.inputs = json_or_text(attrs.get(om.INPUT_VALUE))
        span.output = json_or_text(attrs.get(om.OUTPUT_VALUE))


def event_texts(raw: dict[str, Any]) -> list[Any]:
    """The loopscope events a span carries as JSON on its span events (when loopscope exported it)."""
    found = [attrs.get(om.EVENT_JSON) for _name, attrs in _span_events(raw, "", ShapeNotes())]
    return [text for text in found if text]


def loopscope_events(texts: list[Any]) -> tuple[list[EventBase] | None, int]:
    """The exact events when loopscope itself exported the spans (each span event carries its JSON),
    and how many carried JSON that is no event (then the spans are read as any other tool's)."""
    if not texts:
        return None, 0
    events = [event for event in map(_event_or_none, texts) if event is not None]
    if len(events) < len(texts):
        return None, len(texts) - len(events)
    return sorted(events, key=lambda e: e.seq), 0


def _event_or_none(text: Any) -> EventBase | None:
    """The event the JSON text holds; a lone surrogate \\u-escaped (as the trace writer and the
    exporter write one) is valid JSON that pydantic's parser refuses, so the json module reads it."""
    if not isinstance(text, str):
        return None
    try:
        return event_from_json(text)
    except ValidationError as error:
        if error.errors()[0]["type"] != "json_invalid" or "\\ud" not in text:
            return None
    readable, data = parsed_json(text)
    try:
        return EVENT_ADAPTER.validate_python(data) if readable else None
    except ValidationError:
        return None


def attach_log_events(
    groups: dict[str | None, list[Span]], logs: list[tuple[str, dict[str, Any]]], notes: ShapeNotes
) -> None:
    """Log records that are events of a span (an `event.name`, the span's id): the older GenAI
    convention sent as logs (pydantic-ai's `event_mode='logs'`, one record per message). A model call
    whose attributes hold no messages takes them from its events, body and attributes as one object."""
    by_span: dict[str, SpanEvents] = {}
    for where, record in logs:
        span_id = identifier(record.get("spanId"))
        attrs = attributes(record.get("attributes"), where, notes, ": attributes")
        name = record.get("eventName") or attrs.get("event.name")
        if span_id is None or not isinstance(name, str) or not name:
            continue
        body = _value(record.get("body"))
        by_span.setdefault(span_id, []).append((name, {**attrs, **(body if isinstance(body, dict) else {})}))
    if not by_span:
        return
    for spans in groups.values():
        for span in spans:
            events = by_span.get(span.span_id) if span.role == LLM else None
            if events:
                messages_from_events(span, events)
