"""A Responses API turn that OpenInference's openai-agents spans write one input item a message (the text,
then each function call alone) opens as the one assistant message it was; a chat request's own
consecutive assistant messages are left as they were sent."""

from __future__ import annotations

import json

from tracer.trace.importers.model_call_attributes import request_from

PREFIX = "llm.input_messages"


def _flattened(messages: list[dict]) -> dict[str, str]:
    """OpenInference's flattened keys for `messages` (role, text, tool calls, tool call id)."""
    attrs: dict[str, str] = {}
    for n, message in enumerate(messages):
        at = f"{PREFIX}.{n}.message"
        attrs[f"{at}.role"] = message["role"]
        if "content" in message:
            attrs[f"{at}.content"] = message["content"]
        if "tool_call_id" in message:
            attrs[f"{at}.tool_call_id"] = message["tool_call_id"]
        for k, (call_id, name, arguments) in enumerate(message.get("calls", ())):
            call = f"{at}.tool_calls.{k}.tool_call"
            attrs |= {f"{call}.id": call_id, f"{call}.function.name": name, f"{call}.function.arguments": arguments}
    return attrs


SPLIT = [
    {"role": "user", "content": "Weather in Paris and Oslo?"},
    {"role": "assistant", "content": "Checking both."},
    {"role": "assistant", "calls": [("c1", "weather", '{"city": "Paris"}')]},
    {"role": "assistant", "calls": [("c2", "weather", '{"city": "Oslo"}')]},
    {"role": "tool", "tool_call_id": "c1", "content": "rainy"},
    {"role": "tool", "tool_call_id": "c2", "content": "snow"},
    {"role": "assistant", "calls": [("c3", "weather", '{"city": "Rome"}')]},  # a turn of calls alone
    {"role": "tool", "tool_call_id": "c3", "content": "sunny"},
]
ITEMS = [
    {"role": "user", "content": "Weather in Paris and Oslo?"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking both."}]},
    {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city": "Paris"}'},
    {"type": "function_call", "call_id": "c2", "name": "weather", "arguments": '{"city": "Oslo"}'},
    {"type": "function_call_output", "call_id": "c1", "output": "rainy"},
    {"type": "function_call_output", "call_id": "c2", "output": "snow"},
    {"type": "function_call", "call_id": "c3", "name": "weather", "arguments": '{"city": "Rome"}'},
    {"type": "function_call_output", "call_id": "c3", "output": "sunny"},
]


def _call(call_id: str, city: str) -> dict:
    arguments = json.dumps({"city": city})
    return {"id": call_id, "type": "function", "function": {"name": "weather", "arguments": arguments}}


JOINED = [
    {"role": "user", "content": "Weather in Paris and Oslo?"},
    {"role": "assistant", "content": "Checking both.", "tool_calls": [_call("c1", "Paris"), _call("c2", "Oslo")]},
    {"role": "tool", "content": "rainy", "tool_call_id": "c1"},
    {"role": "tool", "content": "snow", "tool_call_id": "c2"},
    {"role": "assistant", "content": "", "tool_calls": [_call("c3", "Rome")]},
    {"role": "tool", "content": "sunny", "tool_call_id": "c3"},
]


def test_a_turn_split_over_responses_items_opens_as_one_assistant_message():
    attrs = _flattened(SPLIT) | {"input.value": json.dumps(ITEMS)}
    assert request_from(attrs, []).messages == JOINED


def test_the_responses_items_alone_open_as_the_same_turns():
    # A span that keeps only the items (input.value, no flattened messages): the assistant's text item
    # and the function calls after it are one message there too.
    assert request_from({"input.value": json.dumps(ITEMS)}, []).messages == JOINED


def test_a_chat_requests_consecutive_assistant_messages_stay_as_sent():
    # The same flattened messages from a chat-completions request (its input.value chat messages, or
    # none): nothing says they were one turn, so each is the message the request held.
    chat_input = [{"role": m["role"], "content": m.get("content", "")} for m in SPLIT]
    for extra in ({"input.value": json.dumps(chat_input)}, {}):
        messages = request_from(_flattened(SPLIT) | extra, []).messages
        assert messages is not None
        assert [(m["role"], [c["id"] for c in m.get("tool_calls", ())]) for m in messages] == [
            ("user", []),
            ("assistant", []),
            ("assistant", ["c1"]),
            ("assistant", ["c2"]),
            ("tool", []),
            ("tool", []),
            ("assistant", ["c3"]),
            ("tool", []),
        ]
