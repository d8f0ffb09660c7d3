"""Chat messages in the shapes other tools record (OpenAI, Anthropic, GenAI parts, Gemini, LangChain, Responses) as OpenAI-shaped messages."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .shape import parsed_json

Message = dict[str, Any]
"""One message as loopscope's own llm_start holds it: role, content (text), tool_calls, tool_call_id."""

# Each tool's name for a role, to the OpenAI names the executor's own traces use.
ROLES = {
    "human": "user",
    "humanmessage": "user",
    "humanmessagechunk": "user",
    "ai": "assistant",
    "aimessage": "assistant",
    "aimessagechunk": "assistant",
    "model": "assistant",
    "systemmessage": "system",
    "toolmessage": "tool",
    "function": "tool",
    "functionmessage": "tool",
}


def role_of(value: Any, default: str = "user") -> str:
    if not isinstance(value, str) or not value:
        return default
    return ROLES.get(value.lower(), value)


def text_of(value: Any) -> str:
    """A value shown as text: strings as they are, anything else as indented JSON (for reading)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def compact(value: Any) -> str:
    """A value as text: a string as it is, anything else as compact JSON (how a model's arguments look)."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, default=str)


def call_id_text(call_id: Any) -> str:
    """A tool call's id as text; Microsoft's agent framework records [run id, call id]."""
    if isinstance(call_id, list) and all(isinstance(part, str) for part in call_id):
        return "/".join(call_id)
    return compact(call_id)


def tool_call(name: Any, arguments: Any, call_id: Any) -> dict[str, Any]:
    """One requested call, as ToolCallRecord holds it: id, name, arguments (JSON text)."""
    return {
        "id": call_id_text(call_id),
        "name": compact(name),
        "arguments": compact(arguments if arguments is not None else {}),
    }


def openai_calls(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calls in the OpenAI message shape (what an assistant message's tool_calls hold)."""
    return [
        {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in calls
    ]


@dataclass
class Content:
    """What a message's content parts say: its text, the calls it asks for, the tool results it carries."""

    texts: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    results: list[Message] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)  # what the model thought aloud: not its reply

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


def _part_call(part: dict[str, Any]) -> dict[str, Any] | None:
    """A content part that is a tool call, in any of the shapes: GenAI, Anthropic, Gemini, Koog, Responses."""
    kind = part.get("type")
    if kind == "tool_call" or kind == "tool_use":  # GenAI parts, Anthropic blocks
        return tool_call(part.get("name"), part.get("arguments", part.get("input")), part.get("id"))
    if kind == "tool-call" or (kind is None and "toolCallId" in part and "toolName" in part):  # Vercel AI SDK
        return tool_call(part.get("toolName"), part.get("input", part.get("args")), part.get("toolCallId"))
    if kind == "function_call":  # OpenAI Responses
        return tool_call(part.get("name"), part.get("arguments"), part.get("call_id", part.get("id")))
    for key in ("function_call", "functionCall"):  # Gemini
        call = part.get(key)
        if isinstance(call, dict):
            return tool_call(call.get("name"), call.get("args"), call.get("id"))
    function = part.get("function")
    if isinstance(function, dict) and "name" in function:  # OpenAI's tool_calls entry, Koog's content
        return tool_call(function.get("name"), function.get("arguments"), part.get("id"))
    return None


def _part_result(part: dict[str, Any]) -> Message | None:
    """A content part that is a tool's result (GenAI tool_call_response, Anthropic tool_result, Gemini, Responses)."""
    kind = part.get("type")
    if kind == "tool_call_response":
        value = part.get("response", part.get("result"))
        return {"role": "tool", "tool_call_id": call_id_text(part.get("id")), "content": compact(value)}
    if kind == "tool_result":
        inner = content_of(part.get("content"))
        return {"role": "tool", "tool_call_id": compact(part.get("tool_use_id")), "content": inner.text}
    if kind == "tool-result":  # Vercel AI SDK: v5's output {type, value}, v4's result
        output = part.get("output", part.get("result"))
        if isinstance(output, dict) and "value" in output and output.get("type") in _VERCEL_OUTPUTS:
            output = output["value"]
        return {"role": "tool", "tool_call_id": compact(part.get("toolCallId")), "content": compact(output)}
    if kind == "function_call_output":
        return {"role": "tool", "tool_call_id": compact(part.get("call_id")), "content": compact(part.get("output"))}
    for key in ("function_response", "functionResponse"):
        result = part.get(key)
        if isinstance(result, dict):
            return {
                "role": "tool",
                "tool_call_id": compact(result.get("id")),
                "content": compact(result.get("response")),
            }
    return None


TEXT_KEYS = ("text", "content")
_VERCEL_OUTPUTS = frozenset({"text", "json", "error-text", "error-json", "content"})


def content_of(value: Any) -> Content:
    """A message's content: a string, a list of parts (text, tool calls, tool results, images), or
    anything else (kept whole as JSON text, so nothing it says is lost)."""
    found = Content()
    if isinstance(value, str):
        found.texts.append(value)
    elif isinstance(value, list) and all(_is_part(part) for part in value):
        for part in value:
            _add_part(found, part)
    elif isinstance(value, dict):
        _add_part(found, value)
    elif value is not None:
        found.texts.append(compact(value))
    return found


_PART_KEYS = (
    "type",
    "text",
    "toolCallId",
    "function",
    "function_call",
    "functionCall",
    "function_response",
    "functionResponse",
)


def _is_part(part: Any) -> bool:
    """A content part (a text, a tool call, an image ...); a list of other things (a tool's search
    results) is no list of parts, and is kept whole as JSON."""
    return isinstance(part, str) or (isinstance(part, dict) and any(key in part for key in _PART_KEYS))


def _add_part(found: Content, part: Any) -> None:
    if not isinstance(part, dict):
        found.texts.append(compact(part))
        return
    if _is_reasoning(part.get("type")):
        thought = part.get("content", part.get("thinking", part.get("text")))
        if isinstance(thought, dict):  # Microsoft.Extensions.AI's serialised TextReasoningContent
            thought = thought.get("text", thought.get("Text"))
        if isinstance(thought, str) and thought.strip():
            found.reasoning.append(thought)
        return  # a part holding only protected data (Gemini's thought signature) says nothing readable
    call, result = _part_call(part), _part_result(part)
    if call is not None:
        found.calls.append(call)
    elif result is not None:
        found.results.append(result)
    elif part.get("type") in (None, "text", "input_text", "output_text") and any(
        isinstance(part.get(key), str) for key in TEXT_KEYS
    ):
        found.texts.append(next(part[key] for key in TEXT_KEYS if isinstance(part.get(key), str)))
    else:  # an image, a file, a part of a kind not known here: kept as it is written
        found.texts.append(compact(part))


# Reasoning parts: the GenAI convention's and Anthropic's kinds, and the .NET type name
# Microsoft.Extensions.AI writes for a TextReasoningContent it has no part for (empty text, protectedData).
_REASONING_KINDS = frozenset({"reasoning", "thinking", "redacted_thinking"})


def _is_reasoning(kind: Any) -> bool:
    return isinstance(kind, str) and (kind in _REASONING_KINDS or kind.endswith(".TextReasoningContent"))


def _langchain_calls(fields: dict[str, Any]) -> list[dict[str, Any]]:
    """LangChain's tool calls: `tool_calls` [{name, args, id}], or OpenAI's in additional_kwargs."""
    calls = fields.get("tool_calls")
    if isinstance(calls, list) and calls:
        return [
            tool_call(c.get("name"), c.get("args", c.get("arguments")), c.get("id"))
            if "function" not in c
            else _part_call(c) or tool_call(None, None, None)
            for c in calls
            if isinstance(c, dict)
        ]
    extra = fields.get("additional_kwargs")
    if isinstance(extra, dict) and isinstance(extra.get("tool_calls"), list):
        return [call for c in extra["tool_calls"] if isinstance(c, dict) and (call := _part_call(c))]
    return []


def _message(role: str, content: Content, calls: list[dict[str, Any]], call_id: Any = None) -> list[Message]:
    """The OpenAI message(s) one recorded message stands for: the message, then any tool results it carried."""
    made: list[Message] = []
    all_calls = calls + content.calls
    if role == "tool" and all_calls and call_id is None:
        role = "assistant"  # Koog writes the model's request for calls as a `tool` message: asking is the model's
    if content.texts or all_calls or content.reasoning or not content.results:
        message: Message = {"role": role, "content": content.text}
        if content.reasoning:
            message["reasoning"] = "\n".join(content.reasoning)
        if all_calls:
            message["tool_calls"] = openai_calls(all_calls)
        if call_id is not None and role == "tool":
            message["tool_call_id"] = call_id_text(call_id)
        made.append(message)
    return made + content.results


_PLAIN_KEYS = frozenset({"role", "content", "tool_call_id"})


def messages_of_item(item: Any) -> tuple[list[Message], list[dict[str, Any]]]:
    """(messages, tool definitions) that one item of a recorded message list stands for."""
    if type(item) is dict and type(item.get("content")) is str and item.keys() <= _PLAIN_KEYS:
        plain: Message = {"role": role_of(item.get("role"), "message"), "content": item["content"]}
        if item.get("tool_call_id") is not None and plain["role"] == "tool":
            plain["tool_call_id"] = call_id_text(item["tool_call_id"])
        return [plain], []  # the common case, taken at once: a role and a text
    if isinstance(item, str):
        return [_agno_message(item) or {"role": "user", "content": item}], []
    if not isinstance(item, dict):
        return [{"role": "message", "content": compact(item)}], []
    if "kwargs" in item and "lc" in item:  # LangChain's serialised message
        path = item.get("id")
        role = role_of(path[-1] if isinstance(path, list) and path else None, "message")
        if not isinstance(item["kwargs"], dict):  # e.g. a string: it is what the message says
            return [{"role": role, "content": compact(item["kwargs"])}], []
        return _langchain_message(item["kwargs"], role), []
    if item.get("role") == "tool" and isinstance(item.get("content"), dict) and "function" in item["content"]:
        return [], [item["content"]]  # Langfuse lists the tools offered as `tool` messages: they are tools
    kind = item.get("type")
    if kind in ("function_call", "function_call_output") or ("toolCallId" in item and "role" not in item):
        # OpenAI Responses input items; the Vercel AI SDK's response tool calls ({toolCallId, toolName, input})
        content = content_of([item])
        return _message("assistant", content, []) if content.calls else content.results, []
    if "role" not in item and isinstance(kind, str) and "content" in item:  # a LangChain message's dump
        return _langchain_message(item, role_of(kind, "message")), []
    content = content_of(item.get("parts") if "parts" in item and "content" not in item else item.get("content"))
    role = role_of(item.get("role"), "message")
    return _message(role, content, _langchain_calls(item), item.get("tool_call_id")), []


def _langchain_message(fields: dict[str, Any], role: str) -> list[Message]:
    role = role_of(fields.get("role") if role == "chat" else fields.get("type"), role)
    return _message(role, content_of(fields.get("content")), _langchain_calls(fields), fields.get("tool_call_id"))


# Agno records its messages as Python reprs: "role='user' content='What is ...' name=None tool_call_id=None
# tool_calls=[{'id': ..., 'function': {...}}] ...". Each field's literal is cut out by scanning its quotes and
# brackets, then read with ast.literal_eval (literals only: nothing in the text is ever run).
_AGNO = re.compile(r"role='(\w+)' content=")
_REPR_FIELD = re.compile(r" (\w+)=")
_REPR_FIELDS = 12  # tool_calls is the fourth field; the rest (audio, metrics ...) need not be read
_REPR_LIMIT = 1_000_000  # characters of one literal read back; a longer one is left as it is
_OPEN, _CLOSE = "[{(", "]})"


def _literal_end(text: str, at: int) -> int:
    """Where the Python literal starting at `at` ends (a string, a bracketed value, or a bare word)."""
    depth, quote, index = 0, "", at
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
                if depth == 0:
                    return index + 1
        elif char in "'\"":
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
            if depth <= 0:
                return index + 1
        elif char == " " and depth == 0:
            return index
        index += 1
    return index


def _repr_literal(text: str, at: int) -> tuple[Any, int]:
    """The value of the literal at `at` and where it ends; (None, end) when it is no readable literal."""
    end = _literal_end(text, at)
    if end - at > _REPR_LIMIT:
        return None, end
    try:
        return ast.literal_eval(text[at:end]), end
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None, end


def _agno_message(text: str) -> Message | None:
    """A message written as a Python repr: its role, content, the tool calls it asks for and the call
    id it answers."""
    found = _AGNO.match(text)
    if found is None:
        return None
    content, end = _repr_literal(text, found.end())
    message: Message = {"role": role_of(found.group(1)), "content": content if isinstance(content, str) else ""}
    fields = 0
    while (field_found := _REPR_FIELD.match(text, end)) is not None and fields < _REPR_FIELDS:
        value, end = _repr_literal(text, field_found.end())
        fields += 1  # fields are read one after another, so a field's name inside a text is no field
        if field_found.group(1) == "tool_call_id" and isinstance(value, str) and message["role"] == "tool":
            message["tool_call_id"] = value
        elif field_found.group(1) == "tool_calls" and isinstance(value, list) and value:
            calls = [call for c in value if isinstance(c, dict) and (call := _part_call(c))]
            message["tool_calls"] = openai_calls(calls)
    return message


def messages_of(items: list[Any]) -> tuple[list[Message], list[dict[str, Any]]]:
    """A recorded message list as OpenAI messages, and the tool definitions found among them.
    Responses-API function calls join the assistant message before them (its text too), as the model wrote them."""
    messages: list[Message] = []
    tools: list[dict[str, Any]] = []
    for item in items:
        made, offered = messages_of_item(item)
        tools += offered
        for message in made:
            previous = messages[-1] if messages else None
            if (
                previous is not None
                and isinstance(item, dict)
                and previous.get("role") == "assistant"
                and (item.get("type") == "function_call" or ("toolCallId" in item and previous.get("tool_calls")))
            ):
                previous["tool_calls"] = [*(previous.get("tool_calls") or ()), *message.get("tool_calls", [])]
            else:
                messages.append(message)
    _answer_in_order(messages)
    return messages, tools


def _answer_in_order(messages: list[Message]) -> None:
    """A tool result recorded without its call id (Koog) answers the earliest call still unanswered:
    results follow the assistant message that asked for them, in its order, as chat APIs require."""
    unanswered: list[str] = []
    for message in messages:
        if message.get("role") == "assistant":
            unanswered = [c["id"] for c in message.get("tool_calls") or () if c.get("id")]
        elif message.get("role") == "tool":
            if message.get("tool_call_id") in unanswered:
                unanswered.remove(message["tool_call_id"])
            elif "tool_call_id" not in message and unanswered:
                message["tool_call_id"] = unanswered.pop(0)


def json_or_text(value: Any) -> Any:
    """A string holding JSON (as attributes and Langfuse's trace input do) read as that JSON; else the value."""
    if isinstance(value, str) and value[:1] in ("[", "{", '"'):
        readable, parsed = parsed_json(value)
        if readable:
            return parsed
    return value
