"""pydantic-ai's message history, tools offered and replies in the OpenAI chat shape a trace holds, and back."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryFeedbackPart,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import ModelRequestParameters

from executor.events import ToolCallRecord

from ..agents.frameworks import RecordedReply
from .framework_events import as_json_text

# Imported by pydantic_ai_agent.py only after it has imported pydantic_ai (or said which extra to install).


def content_text(content: Any) -> str:
    return content if isinstance(content, str) else as_json_text(content)


def chat_messages(history: list[ModelMessage]) -> list[dict[str, Any]]:
    """pydantic-ai's message history as the OpenAI chat messages its OpenAI chat model sends."""
    messages: list[dict[str, Any]] = []
    instructions = next((m.instructions for m in reversed(history) if isinstance(m, ModelRequest)), None)
    if instructions:
        messages.append({"role": "system", "content": instructions})
    for message in history:
        if isinstance(message, ModelResponse):
            messages.append(_assistant(message))
            continue
        for part in message.parts:
            if isinstance(part, SystemPromptPart):
                messages.append({"role": "system", "content": part.content})
            elif isinstance(part, UserPromptPart):
                messages.append({"role": "user", "content": content_text(part.content)})
            elif isinstance(part, ToolReturnPart):
                messages.append(
                    {"role": "tool", "tool_call_id": part.tool_call_id, "content": part.model_response_str()}
                )
            elif isinstance(part, RetryPromptPart) and part.tool_name:
                messages.append({"role": "tool", "tool_call_id": part.tool_call_id, "content": part.model_response()})
            elif isinstance(part, RetryPromptPart):
                messages.append({"role": "user", "content": part.model_response()})
            elif isinstance(part, RetryFeedbackPart):  # a model translates it before sending; kept as its text
                messages.append({"role": "user", "content": feedback_text(part)})
    return messages


def feedback_text(part: RetryFeedbackPart) -> str:
    return part.content if isinstance(part.content, str) else as_json_text(part.content)


def _assistant(response: ModelResponse) -> dict[str, Any]:
    text, calls = reply_of(response)
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
        ]
    return message


def reply_of(response: ModelResponse) -> tuple[str, list[ToolCallRecord]]:
    text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
    calls = [
        ToolCallRecord(id=p.tool_call_id, name=p.tool_name, arguments=p.args_as_json_str())
        for p in response.parts
        if isinstance(p, ToolCallPart)
    ]
    return text, calls


def offered_tools(parameters: ModelRequestParameters) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description or "", "parameters": t.parameters_json_schema},
        }
        for t in [*parameters.function_tools, *parameters.output_tools]
    ]


def as_response(reply: RecordedReply, model: str) -> ModelResponse:
    """A recorded reply as the ModelResponse the agent's own model would have returned."""
    parts: list[Any] = [TextPart(reply.text)] if reply.text else []
    parts += [ToolCallPart(c.name, c.arguments, tool_call_id=c.id) for c in reply.tool_calls]
    return ModelResponse(parts=parts, model_name=model)
