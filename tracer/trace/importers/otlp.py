"""OTLP JSON (a collector's file exporter, Phoenix, Langfuse) read as spans: OpenInference and GenAI conventions."""

from __future__ import annotations

import json
from typing import Any

from executor.events import EventBase, event_from_json

from .. import otel_mapping as om
from .spans import LLM, OTHER, TOOL, Span, messages_text, text_of

ERROR_CODES = (2, "STATUS_CODE_ERROR")
GENAI_LLM_OPERATIONS = {"chat", "text_completion", "generate_content", "completion"}


def is_otlp(document: Any) -> bool:
    return isinstance(document, dict) and "resourceSpans" in document


def _value(value: dict[str, Any]) -> Any:
    """An OTLP AnyValue as a Python value."""
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])  # 64-bit ints are strings in OTLP JSON
    if "arrayValue" in value:
        return [_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return attributes(value["kvlistValue"].get("values", []))
    return None


def attributes(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    return {pair["key"]: _value(pair.get("value", {})) for pair in pairs if "key" in pair}


def raw_spans(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [span for document in documents for resource in document.get("resourceSpans", [])
            for scope in resource.get("scopeSpans", resource.get("instrumentationLibrarySpans", []))
            for span in scope.get("spans", [])]


def _seconds(nanos: Any) -> float:
    return int(nanos or 0) / 1e9


def _indexed_messages(attrs: dict[str, Any], prefix: str, role_key: str, content_key: str) -> list[dict]:
    """Messages flattened as `prefix.0.role_key` / `prefix.0.content_key` (OpenInference, OpenLLMetry)."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix + "."):
            continue
        number, _, rest = key[len(prefix) + 1:].partition(".")
        if number.isdigit() and rest in (role_key, content_key):
            found.setdefault(int(number), {})["role" if rest == role_key else "content"] = value
    return [found[n] for n in sorted(found)]


def _genai_messages(value: Any) -> list[dict[str, Any]]:
    """gen_ai.input.messages / gen_ai.output.messages: JSON, each message with `parts`."""
    try:
        messages = json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError:
        return [{"role": "message", "content": value}]
    result = []
    for message in messages if isinstance(messages, list) else []:
        parts = message.get("parts") or []
        content = "\n".join(text_of(p.get("content", p.get("result", p.get("arguments"))))
                            for p in parts) if parts else text_of(message.get("content"))
        result.append({"role": message.get("role"), "content": content})
    return result


def _messages(attrs: dict[str, Any], events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Input (side "input") or output messages under whichever convention the span uses."""
    oi = om.LLM_INPUT_MESSAGES if side == "input" else om.LLM_OUTPUT_MESSAGES
    found = _indexed_messages(attrs, oi, om.MESSAGE_ROLE, om.MESSAGE_CONTENT)
    found = found or _indexed_messages(attrs, "gen_ai.prompt" if side == "input" else "gen_ai.completion",
                                       "role", "content")
    if not found and f"gen_ai.{side}.messages" in attrs:
        found = _genai_messages(attrs[f"gen_ai.{side}.messages"])
    if not found:  # the older GenAI convention: one span event per message
        for event in events:
            name, event_attrs = event.get("name", ""), attributes(event.get("attributes", []))
            if side == "input" and name.startswith("gen_ai.") and name.endswith(".message"):
                found.append({"role": name[len("gen_ai."):-len(".message")], "content": event_attrs.get("content")})
            elif side == "output" and name == "gen_ai.choice":
                message = event_attrs.get("message") or event_attrs.get("content")
                found.append({"role": "assistant", "content": message})
    return found


def _usage(attrs: dict[str, Any]) -> dict[str, int] | None:
    prompt = attrs.get(om.LLM_TOKEN_COUNT_PROMPT, attrs.get("gen_ai.usage.input_tokens",
                                                            attrs.get("gen_ai.usage.prompt_tokens")))
    completion = attrs.get(om.LLM_TOKEN_COUNT_COMPLETION, attrs.get("gen_ai.usage.output_tokens",
                                                                    attrs.get("gen_ai.usage.completion_tokens")))
    if prompt is None or completion is None:
        return None
    return {"prompt_tokens": int(prompt), "completion_tokens": int(completion),
            "total_tokens": int(attrs.get(om.LLM_TOKEN_COUNT_TOTAL, int(prompt) + int(completion)))}


def _role(attrs: dict[str, Any]) -> str:
    kind = str(attrs.get(om.SPAN_KIND, "")).upper()
    operation = str(attrs.get("gen_ai.operation.name", ""))
    if kind == om.LLM or operation in GENAI_LLM_OPERATIONS:
        return LLM
    if kind == om.TOOL or operation == "execute_tool":
        return TOOL
    return OTHER


def _error(raw: dict[str, Any], attrs: dict[str, Any]) -> tuple[str, str] | None:
    status = raw.get("status") or {}
    for event in raw.get("events", []):
        if event.get("name") == "exception":
            found = attributes(event.get("attributes", []))
            return (str(found.get("exception.type", "Error")), str(found.get("exception.message", "")))
    if status.get("code") in ERROR_CODES:
        return (str(attrs.get("exception.type", attrs.get("error.type", "Error"))),
                str(attrs.get("exception.message", status.get("message", ""))))
    return None


def span_from(raw: dict[str, Any]) -> Span:
    attrs = attributes(raw.get("attributes", []))
    events = raw.get("events", [])
    role = _role(attrs)
    name = raw.get("name") or "span"
    if role == TOOL:
        name = str(attrs.get(om.TOOL_NAME, attrs.get("gen_ai.tool.name", name)))
    inputs = _messages(attrs, events, "input") if role == LLM else []
    outputs = _messages(attrs, events, "output") if role == LLM else []
    prompt = messages_text(inputs) if len(inputs) != 1 else text_of(inputs[0].get("content"))
    output = "\n".join(text_of(m.get("content")) for m in outputs)
    tool_input = attrs.get(om.INPUT_VALUE, attrs.get("tool.parameters", attrs.get("gen_ai.tool.call.arguments")))
    return Span(
        span_id=str(raw.get("spanId", "")), parent_id=str(raw.get("parentSpanId") or "") or None, name=name,
        role=role, start=_seconds(raw.get("startTimeUnixNano")), end=_seconds(raw.get("endTimeUnixNano")),
        model=str(attrs.get(om.LLM_MODEL_NAME, attrs.get("gen_ai.response.model",
                                                          attrs.get("gen_ai.request.model", "")))),
        prompt=prompt or text_of(attrs.get(om.INPUT_VALUE)),
        output=output or text_of(attrs.get(om.OUTPUT_VALUE, attrs.get("gen_ai.tool.call.result"))),
        inputs=tool_input if role != OTHER else _json_or_text(attrs.get(om.INPUT_VALUE)),
        usage=_usage(attrs) if role == LLM else None, error=_error(raw, attrs))


def _json_or_text(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def loopscope_events(spans: list[dict[str, Any]]) -> list[EventBase] | None:
    """The exact events when loopscope itself exported the spans (each span event carries its JSON)."""
    found = [attributes(event.get("attributes", [])).get(om.EVENT_JSON)
             for span in spans for event in span.get("events", [])]
    found = [text for text in found if text]
    if not found:
        return None
    events = [event_from_json(text) for text in found]
    return sorted(events, key=lambda e: e.seq)
