"""Messages a span keeps as events: the older GenAI convention's one event a message, and pydantic-ai's `events` attribute."""

from __future__ import annotations

from typing import Any

from .messages import json_or_text

SpanEvents = list[tuple[str, dict[str, Any]]]  # each span event's name and attributes


def event_messages(events: SpanEvents, side: str, decoded: bool = False) -> list[Any]:
    """The older GenAI convention: one event per message (gen_ai.user.message, gen_ai.assistant.message
    with its tool_calls, gen_ai.tool.message with the id of the call it answers, gen_ai.choice). Span
    events hold JSON as text; `decoded` events (read from a JSON attribute) hold it read already, and a
    text in them is kept as it is."""
    read = (lambda value: value) if decoded else json_or_text
    found: list[Any] = []
    for name, event_attrs in events:
        if side == "input" and name.startswith("gen_ai.") and name.endswith(".message"):
            role = name[len("gen_ai.") : -len(".message")]
            message = {"role": event_attrs.get("role", role), "content": read(event_attrs.get("content"))}
            calls = json_or_text(event_attrs.get("tool_calls"))
            if isinstance(calls, list) and calls:
                message["tool_calls"] = calls
            call_id = event_attrs.get("tool_call_id", event_attrs.get("id") if role == "tool" else None)
            if call_id is not None:
                message["tool_call_id"] = call_id
            found.append(message)
        elif side == "output" and name == "gen_ai.choice":
            found.append(read(event_attrs.get("message", event_attrs.get("content"))))
    return found


def attribute_events(attrs: dict[str, Any]) -> SpanEvents:
    """pydantic-ai's events form (its instrumentation version 1, event_mode='attributes'): the model
    span's events, one per message, kept as a JSON list in its `events` attribute, each event's body and
    attributes in one object named by its `event.name`."""
    listed = json_or_text(attrs.get("events"))
    if not isinstance(listed, list):
        return []
    return [
        (item["event.name"], item)
        for item in listed
        if isinstance(item, dict) and isinstance(item.get("event.name"), str)
    ]
