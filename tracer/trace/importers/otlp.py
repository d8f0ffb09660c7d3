"""OTLP JSON (a collector's file exporter, Phoenix, Langfuse) read as spans: OpenInference and GenAI conventions."""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import ValidationError

from executor.events import EVENT_ADAPTER, EventBase, event_from_json

from .. import otel_mapping as om
from .shape import ShapeNotes, identifier, name_text, parsed_json, quoted
from .spans import LLM, OTHER, TOOL, Span, messages_text, text_of

ERROR_CODES = (2, "STATUS_CODE_ERROR")
GENAI_LLM_OPERATIONS = {"chat", "text_completion", "generate_content", "completion"}


def is_otlp(document: Any) -> bool:
    return isinstance(document, dict) and "resourceSpans" in document


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


def attributes(pairs: Any, where: str, notes: ShapeNotes) -> dict[str, Any]:
    """A span's (or span event's) attributes by key; pairs that are not {"key": text, ...} are noted."""
    found = {}
    for index, pair in enumerate(notes.items(pairs, where)):
        if isinstance(pair, dict) and isinstance(pair.get("key"), str):
            found[pair["key"]] = _value(pair.get("value"))
        else:
            notes.note(f"{where}[{index}]", pair, 'an attribute ({"key": name, "value": ...})')
    return found


def raw_spans(documents: list[dict[str, Any]], notes: ShapeNotes) -> list[tuple[str, dict[str, Any]]]:
    """Every span object in the documents, each with a name for messages: its spanId, or where it is."""
    found = []
    for number, document in enumerate(documents, start=1):
        top = f"document {number}: resourceSpans" if len(documents) > 1 else "resourceSpans"
        for at_resource, resource in notes.objects(document.get("resourceSpans"), top):
            key = "scopeSpans" if "scopeSpans" in resource else "instrumentationLibrarySpans"
            for at_scope, scope in notes.objects(resource.get(key), f"{at_resource}.{key}"):
                for at_span, span in notes.objects(scope.get("spans"), f"{at_scope}.spans"):
                    span_id = identifier(span.get("spanId"))
                    found.append((f"span {quoted(span_id)}" if span_id else at_span, span))
    return found


# OTLP times are unsigned 64-bit nanoseconds; 0 means "not set".
_MAX_NANOS = 2**64


def _seconds(nanos: Any, where: str, notes: ShapeNotes) -> float | None:
    """Seconds since 1970 from OTLP nanoseconds (a string of digits, or a number); None when missing
    or not a time ("abc", -5, 1e400, more than 64 bits: noted)."""
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
    notes.note(where, nanos, "a time (nanoseconds since 1970)")
    return None


def _indexed_messages(attrs: dict[str, Any], prefix: str, role_key: str, content_key: str) -> list[dict]:
    """Messages flattened as `prefix.0.role_key` / `prefix.0.content_key` (OpenInference, OpenLLMetry)."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix + "."):
            continue
        number, _, rest = key[len(prefix) + 1 :].partition(".")
        if number.isascii() and number.isdigit() and len(number) < 9 and rest in (role_key, content_key):
            found.setdefault(int(number), {})["role" if rest == role_key else "content"] = value
    return [found[n] for n in sorted(found)]


def _genai_messages(value: Any) -> list[dict[str, Any]]:
    """gen_ai.input.messages / gen_ai.output.messages: JSON, each message with `parts`."""
    if isinstance(value, str):
        readable, messages = parsed_json(value)
        if not readable:
            return [{"role": "message", "content": value}]
    else:
        messages = value
    result = []
    for message in messages if isinstance(messages, list) else [messages]:
        if not isinstance(message, dict):
            result.append({"role": "message", "content": message})
            continue
        parts = message.get("parts")
        if isinstance(parts, list) and parts:
            content = "\n".join(
                text_of(p.get("content", p.get("result", p.get("arguments")))) if isinstance(p, dict) else text_of(p)
                for p in parts
            )
        else:
            content = text_of(parts or message.get("content"))
        result.append({"role": message.get("role"), "content": content})
    return result


SpanEvents = list[tuple[str, dict[str, Any]]]  # each span event's name and attributes


def _messages(attrs: dict[str, Any], events: SpanEvents, side: str) -> list[dict[str, Any]]:
    """Input (side "input") or output messages under whichever convention the span uses."""
    oi = om.LLM_INPUT_MESSAGES if side == "input" else om.LLM_OUTPUT_MESSAGES
    found = _indexed_messages(attrs, oi, om.MESSAGE_ROLE, om.MESSAGE_CONTENT)
    found = found or _indexed_messages(
        attrs, "gen_ai.prompt" if side == "input" else "gen_ai.completion", "role", "content"
    )
    if not found and f"gen_ai.{side}.messages" in attrs:
        found = _genai_messages(attrs[f"gen_ai.{side}.messages"])
    if not found:  # the older GenAI convention: one span event per message
        for name, event_attrs in events:
            if side == "input" and name.startswith("gen_ai.") and name.endswith(".message"):
                found.append({"role": name[len("gen_ai.") : -len(".message")], "content": event_attrs.get("content")})
            elif side == "output" and name == "gen_ai.choice":
                message = event_attrs.get("message") or event_attrs.get("content")
                found.append({"role": "assistant", "content": message})
    return found


_TOKEN_KEYS = (
    (om.LLM_TOKEN_COUNT_PROMPT, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
    (om.LLM_TOKEN_COUNT_COMPLETION, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"),
)


def _usage(attrs: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    prompt, completion = (
        next(((key, attrs[key]) for key in keys if key in attrs), (None, None)) for keys in _TOKEN_KEYS
    )
    if prompt[0] is None or completion[0] is None:
        return None
    prompt_count, completion_count = (
        notes.count(value, f"{where}: attribute {key}") for key, value in (prompt, completion)
    )
    if prompt_count is None or completion_count is None:
        return None
    total = None
    if om.LLM_TOKEN_COUNT_TOTAL in attrs:
        total = notes.count(attrs[om.LLM_TOKEN_COUNT_TOTAL], f"{where}: attribute {om.LLM_TOKEN_COUNT_TOTAL}")
    return {
        "prompt_tokens": prompt_count,
        "completion_tokens": completion_count,
        "total_tokens": total if total is not None else prompt_count + completion_count,
    }


def _role(attrs: dict[str, Any]) -> str:
    kind = str(attrs.get(om.SPAN_KIND, "")).upper()
    operation = str(attrs.get("gen_ai.operation.name", ""))
    if kind == om.LLM or operation in GENAI_LLM_OPERATIONS:
        return LLM
    if kind == om.TOOL or operation == "execute_tool":
        return TOOL
    return OTHER


def _error(
    raw: dict[str, Any], attrs: dict[str, Any], events: SpanEvents, where: str, notes: ShapeNotes
) -> tuple[str, str] | None:
    for name, found in events:
        if name == "exception":
            return (str(found.get("exception.type", "Error")), text_of(found.get("exception.message", "")))
    status = notes.mapping(raw.get("status"), f"{where}: status")
    if status.get("code") in ERROR_CODES:
        return (
            str(attrs.get("exception.type", attrs.get("error.type", "Error"))),
            text_of(attrs.get("exception.message", status.get("message", ""))),
        )
    return None


def _span_events(raw: dict[str, Any], where: str, notes: ShapeNotes) -> SpanEvents:
    return [
        (_text_or_empty(event.get("name")), attributes(event.get("attributes"), f"{at}.attributes", notes))
        for at, event in notes.objects(raw.get("events"), f"{where}: events")
    ]


def _text_or_empty(value: Any) -> str:
    return value if isinstance(value, str) else ""


def span_from(where: str, raw: dict[str, Any], notes: ShapeNotes) -> Span:
    attrs = attributes(raw.get("attributes"), f"{where}: attributes", notes)
    events = _span_events(raw, where, notes)
    role = _role(attrs)
    name = name_text(raw.get("name"), "span")
    if role == TOOL:
        name = name_text(attrs.get(om.TOOL_NAME, attrs.get("gen_ai.tool.name")), name)
    inputs = _messages(attrs, events, "input") if role == LLM else []
    outputs = _messages(attrs, events, "output") if role == LLM else []
    prompt = messages_text(inputs) if len(inputs) != 1 else text_of(inputs[0].get("content"))
    output = "\n".join(text_of(m.get("content")) for m in outputs)
    tool_input = attrs.get(om.INPUT_VALUE, attrs.get("tool.parameters", attrs.get("gen_ai.tool.call.arguments")))
    model = attrs.get(om.LLM_MODEL_NAME, attrs.get("gen_ai.response.model", attrs.get("gen_ai.request.model", "")))
    return Span(
        span_id=identifier(raw.get("spanId")) or where,
        parent_id=identifier(raw.get("parentSpanId")),
        name=name,
        role=role,
        start=_seconds(raw.get("startTimeUnixNano"), f"{where}: startTimeUnixNano", notes),
        end=_seconds(raw.get("endTimeUnixNano"), f"{where}: endTimeUnixNano", notes),
        model=text_of(model),
        prompt=prompt or text_of(attrs.get(om.INPUT_VALUE)),
        output=output or text_of(attrs.get(om.OUTPUT_VALUE, attrs.get("gen_ai.tool.call.result"))),
        inputs=tool_input if role != OTHER else _json_or_text(attrs.get(om.INPUT_VALUE)),
        usage=_usage(attrs, where, notes) if role == LLM else None,
        error=_error(raw, attrs, events, where, notes),
    )


def _json_or_text(value: Any) -> Any:
    if isinstance(value, str):
        readable, parsed = parsed_json(value)
        return parsed if readable else value
    return value


def loopscope_events(spans: list[tuple[str, dict[str, Any]]]) -> tuple[list[EventBase] | None, int]:
    """The exact events when loopscope itself exported the spans (each span event carries its JSON),
    and how many carried JSON that is no event (then the spans are read as any other tool's)."""
    found = [
        event_attributes.get(om.EVENT_JSON)
        for _where, span in spans
        for _name, event_attributes in _span_events(span, "", ShapeNotes())
    ]
    found = [text for text in found if text]
    if not found:
        return None, 0
    events = [event for event in map(_event_or_none, found) if event is not None]
    if len(events) < len(found):
        return None, len(found) - len(events)
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
