"""The chat message history a tool-calling model sees, in the OpenAI chat-completions shape."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..schema import AgentStep, ToolAgentAction

Message = dict[str, Any]
"""One chat message as the OpenAI API takes it: {"role": ..., "content": ..., ...}."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call in a model reply: its id, the tool's name and the arguments as the model wrote them (JSON)."""

    id: str
    name: str
    arguments: str = "{}"

    def as_openai(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}

    def as_record(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class ChatRequest:
    """What a tool-calling agent asks its model (generate_messages' arguments). It travels where a
    prompt does, through fallbacks, breakers and retries, so those serve both kinds of agent."""

    messages: Sequence[Message]
    tools: Sequence[dict[str, Any]]
    parallel_tool_calls: bool = True

    @property
    def tool_choice(self) -> str:
        return "auto" if self.tools else "none"


def system_message(content: str) -> Message:
    return {"role": "system", "content": content}


def user_message(content: str) -> Message:
    return {"role": "user", "content": content}


def assistant_message(content: str, tool_calls: Sequence[ToolCall] = ()) -> Message:
    message: Message = {"role": "assistant", "content": content or None if tool_calls else content}
    if tool_calls:
        message["tool_calls"] = [call.as_openai() for call in tool_calls]
    return message


def tool_message(tool_call_id: str, content: str) -> Message:
    return {"role": "tool", "tool_call_id": tool_call_id, "content": content}


def format_to_tool_messages(intermediate_steps: Sequence[AgentStep]) -> list[Message]:
    """The steps so far as messages: each assistant turn once, then one `role: tool` result per call.

    LangChain: format_to_tool_messages. Where LangChain keeps only the log of a step that is not
    a tool call (a handled parse error), the observation is sent as a user message here, so the
    model is told what was wrong with its answer.
    """
    messages: list[Message] = []
    seen: set[int] = set()  # the calls of one reply share its assistant message: send it once
    for action, observation in intermediate_steps:
        if isinstance(action, ToolAgentAction):
            for message in action.message_log:
                if id(message) not in seen:
                    seen.add(id(message))
                    messages.append(message)
            messages.append(tool_message(action.tool_call_id, str(observation)))
        else:
            messages += [assistant_message(action.log), user_message(str(observation))]
    return messages


def render_messages(messages: Sequence[Message]) -> str:
    """A readable rendering of a message list, for the `prompt` field and the Prompt pane."""
    blocks = []
    for message in messages:
        role = message.get("role", "?")
        head = f"[{role}]" if role != "tool" else f"[tool {message.get('tool_call_id', '?')}]"
        lines = [head]
        if message.get("content"):
            lines.append(str(message["content"]))
        for call in message.get("tool_calls") or ():
            function = call.get("function", {})
            lines.append(f"-> {function.get('name')}({function.get('arguments')}) id={call.get('id')}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def message_text(message: Message) -> str:
    """Everything in a message a tokenizer would see: its content and any tool calls' names and arguments."""
    parts = [str(message.get("content") or "")]
    for call in message.get("tool_calls") or ():
        parts.append(json.dumps(call.get("function", {}), ensure_ascii=False))
    return "\n".join(parts)
