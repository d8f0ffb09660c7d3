"""An assistant turn the OpenAI Responses API split over input items (its text, then each function call) joined back into one message."""

from __future__ import annotations

from typing import Any

from .messages import Message, json_or_text

# Only an input that holds a function call can have a turn split over items; the text test spares
# parsing every other span's input as JSON.
_CALL_ITEM = '"function_call"'


def is_responses_input(value: Any) -> bool:
    """Whether a span's recorded input (`input.value`) is a Responses API item list with a function call in it."""
    if isinstance(value, str) and _CALL_ITEM not in value:
        return False
    items = json_or_text(value)
    return isinstance(items, list) and any(isinstance(i, dict) and i.get("type") == "function_call" for i in items)


def joined_turns(messages: list[Message]) -> list[Message]:
    """Messages written one per Responses item (OpenInference's openai-agents spans: each function call an
    assistant message of its own, with no text) with every such call joined to the assistant message
    before it: one turn, text and calls, as the model wrote it and as the Agents SDK's chat converter
    sends it. A call after any other message (a user's, a tool's) starts the turn."""
    joined: list[Message] = []
    for message in messages:
        previous = joined[-1] if joined else None
        if (
            previous is not None
            and previous.get("role") == "assistant"
            and message.get("role") == "assistant"
            and message.get("tool_calls")
            and not message.get("content")
        ):
            previous["tool_calls"] = [*(previous.get("tool_calls") or ()), *message["tool_calls"]]
        else:
            joined.append(message)
    return joined
