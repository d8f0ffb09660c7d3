"""A user's scripted model replies read from JSON: plain text for a ReAct agent, text and tool calls for a tool-calling one."""

from __future__ import annotations

import json
from typing import Any

from executor import ModelReply, ToolCall

MAX_REPLIES = 10_000  # a script, not a data set


def scripted_replies(value: Any) -> tuple[str | ModelReply, ...]:
    """The replies a JSON list holds, in order; ValueError naming the first entry that is not a reply."""
    if not isinstance(value, list) or not value:
        raise ValueError("give a non-empty JSON list of replies")
    if len(value) > MAX_REPLIES:
        raise ValueError(f"{len(value)} replies; at most {MAX_REPLIES}")
    return tuple(_reply(entry, number) for number, entry in enumerate(value, start=1))


def _reply(entry: Any, number: int) -> str | ModelReply:
    if isinstance(entry, str):
        return entry
    if not isinstance(entry, dict) or not isinstance(entry.get("text", ""), str):
        raise ValueError(f'reply #{number} is neither a string nor {{"text": ..., "tool_calls": [...]}}')
    calls = entry.get("tool_calls", [])
    if not isinstance(calls, list):
        raise ValueError(f"reply #{number}: tool_calls must be a list")
    return ModelReply(text=entry.get("text", ""), tool_calls=tuple(_call(c, number, i) for i, c in enumerate(calls)))


def _call(call: Any, number: int, index: int) -> ToolCall:
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        raise ValueError(f'reply #{number}, tool call #{index + 1}: give {{"name": ..., "arguments": {{...}}}}')
    arguments = call.get("arguments", {})
    written = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    # An id the file leaves out is made like a provider's: unique in the run, stable across re-records.
    return ToolCall(id=str(call.get("id") or f"call_{number}_{index + 1}"), name=call["name"], arguments=written)
