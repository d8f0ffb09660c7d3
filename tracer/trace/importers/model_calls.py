"""A model call's request (messages, tools offered, or a plain prompt) and its reply (text, tool calls, finish reason), whatever shape recorded them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import Message, compact, content_of, json_or_text, messages_of, messages_of_item, text_of, tool_call


@dataclass
class Request:
    """What the model was sent: a message list (chat) or one prompt text (completion), and the tools offered."""

    messages: list[Message] | None = None
    prompt: str | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Reply:
    """What the model answered."""

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str | None = None
    seen: bool = False  # False: the file holds no reply for this call
    partial: str | None = None  # why the text is only a part of the reply, when the file lost some of it


def tool_spec(value: Any) -> dict[str, Any] | None:
    """A tool definition as an OpenAI function spec, from the shapes tools record them in."""
    value = json_or_text(value)
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("function"), dict):
        return {"type": "function", "function": value["function"]}
    if isinstance(value.get("tool"), dict):  # OpenInference: llm.tools.N.tool.json_schema
        return tool_spec(value["tool"].get("json_schema", value["tool"]))
    name = value.get("name", value.get("tool.name"))
    if not isinstance(name, str):
        return None
    function: dict[str, Any] = {"name": name}
    description = value.get("description", value.get("tool.description"))
    if isinstance(description, str):
        function["description"] = description
    for key in ("parameters", "input_schema", "parameters_json_schema", "inputSchema"):
        if isinstance(value.get(key), dict):
            function["parameters"] = value[key]
            break
    return {"type": "function", "function": function}


def tool_specs(value: Any) -> list[dict[str, Any]]:
    """Every tool definition in a list of them (Gemini nests its own under function_declarations)."""
    value = json_or_text(value)
    specs: list[dict[str, Any]] = []
    for item in value if isinstance(value, list) else [value] if isinstance(value, dict) else []:
        declared = (
            item.get("function_declarations", item.get("functionDeclarations")) if isinstance(item, dict) else None
        )
        if isinstance(declared, list):
            specs += tool_specs(declared)
        elif (spec := tool_spec(item)) is not None:
            specs.append(spec)
    return specs


def request_of(value: Any) -> Request:
    """The request a model call's recorded input stands for."""
    value = json_or_text(value)
    if isinstance(value, str):
        return Request(prompt=value)
    if isinstance(value, list):
        return _listed_request(value)
    if not isinstance(value, dict):
        return Request(prompt=compact(value)) if value is not None else Request()
    return _request_object(value)


def _listed_request(value: list[Any]) -> Request:
    if value and all(isinstance(item, list) for item in value):  # LangChain batches: one list per prompt
        return _listed_request(value[0])
    if value and all(isinstance(item, str) for item in value) and not any(item.startswith("role='") for item in value):
        return Request(prompt="\n\n".join(value))  # completion prompts
    messages, tools = messages_of(value)
    return Request(messages=messages, tools=tool_specs(tools))


def _request_object(value: dict[str, Any]) -> Request:
    tools = tool_specs(value.get("tools"))
    config = value.get("config")
    system: list[Message] = []
    if isinstance(config, dict):  # Gemini: {"contents": ..., "config": {"system_instruction", "tools"}}
        tools += tool_specs(config.get("tools"))
        if config.get("system_instruction"):
            system = [{"role": "system", "content": content_of(config["system_instruction"]).text}]
    for key in ("system", "instructions"):  # Anthropic's system prompt, OpenAI Responses' instructions
        if isinstance(value.get(key), (str, list)) and value[key]:
            system = [{"role": "system", "content": content_of(value[key]).text}]
    for key in ("messages", "contents", "input"):
        listed = json_or_text(value.get(key))
        if isinstance(listed, str) and key != "messages":
            return Request(messages=system + [{"role": "user", "content": listed}], tools=tools)
        if isinstance(listed, list):
            inner = _listed_request(listed)
            if inner.messages is None:
                return Request(prompt=inner.prompt, tools=tools)
            return Request(messages=system + inner.messages, tools=tools + inner.tools)
    for key in ("prompt", "prompts", "args"):  # completions, LlamaIndex's complete(*args)
        if key in value:
            inner = request_of(value[key])
            return Request(messages=inner.messages, prompt=inner.prompt, tools=tools + inner.tools)
    if "role" in value or "parts" in value:
        made, offered = messages_of_item(value)
        return Request(messages=system + made, tools=tools + tool_specs(offered))
    return Request(prompt=compact(value))


# -- replies -----------------------------------------------------------------------------------------
def reply_of(value: Any) -> Reply:
    """The reply a model call's recorded output stands for; a shape not known here is kept whole as its text."""
    value = json_or_text(value)
    if value is None:
        return Reply()
    if isinstance(value, str):
        return Reply(text=value, seen=True)
    if isinstance(value, list):
        return _reply_of_messages(value)
    if not isinstance(value, dict):
        return Reply(text=text_of(value), seen=True)
    return _reply_object(value)


def _reply_of_messages(items: list[Any]) -> Reply:
    """Output messages: their text joined as it came (a stream's chunks are one message each) and their calls."""
    if items and all(isinstance(item, list) for item in items):  # LangChain generations: one list per prompt
        return reply_of(items[0][0] if items[0] else None)
    messages, _tools = messages_of(items)
    reply = Reply(seen=True)
    reply.text = "".join(str(m.get("content") or "") for m in messages if m.get("role") != "tool")
    for message in messages:
        for call in message.get("tool_calls") or ():
            reply.tool_calls.append(tool_call(call["function"]["name"], call["function"]["arguments"], call["id"]))
    finish = [item.get("finish_reason") for item in items if isinstance(item, dict)]
    reply.finish_reason = next((str(f) for f in finish if f), None)
    return reply


def _finish(value: Any) -> str | None:
    return compact(value) if value not in (None, "") else None


def _reply_object(value: dict[str, Any]) -> Reply:
    for key, first in (("choices", "message"), ("candidates", "content"), ("generations", None)):
        listed = value.get(key)
        if listed:
            item = listed[0] if isinstance(listed, list) else None
            item = item[0] if isinstance(item, list) and item else item  # LangChain: one list per prompt
            if isinstance(item, dict):
                return _choice(item, first)
            return Reply(text=text_of(listed), seen=True)  # a shape not known here: shown whole
    if isinstance(value.get("output"), list):  # OpenAI Responses: output items
        reply = _reply_of_messages(value["output"])
        reply.finish_reason = _finish(value.get("status")) if reply.finish_reason is None else reply.finish_reason
        return reply
    if isinstance(value.get("content"), dict) and "parts" in value["content"]:  # Google ADK's LlmResponse
        reply = _reply_of_messages([value["content"]])
        reply.finish_reason = _finish(value.get("finish_reason"))
        return reply
    if isinstance(value.get("message"), dict):  # a GenAI choice event: {"index": 0, "message": {...}}
        reply = _reply_of_messages([value["message"]])
        reply.finish_reason = _finish(value.get("finish_reason")) or reply.finish_reason
        return reply
    if "role" in value or ("type" in value and "content" in value):  # one message (OpenAI, Anthropic, LangChain)
        reply = _reply_of_messages([value])
        reply.finish_reason = _finish(value.get("stop_reason")) or _finish(
            (value.get("response_metadata") or {}).get("finish_reason")
            if isinstance(value.get("response_metadata"), dict)
            else None
        )
        return reply
    if isinstance(value.get("text"), str):  # {"text": ..., "finish_reason": ...}
        return Reply(text=value["text"], finish_reason=_finish(value.get("finish_reason")), seen=True)
    if isinstance(value.get("content"), str):
        return Reply(text=value["content"], seen=True)
    return Reply(text=text_of(value), seen=True)


def _choice(item: dict[str, Any], inner: str | None) -> Reply:
    """An OpenAI choice, a Gemini candidate or a LangChain generation."""
    finish = item.get("finish_reason")
    if finish is None and isinstance(item.get("generation_info"), dict):
        finish = item["generation_info"].get("finish_reason")
    message = item.get(inner) if inner else item.get("message")
    if isinstance(message, dict):
        reply = _reply_of_messages([message])
        if not reply.text and not reply.tool_calls and isinstance(item.get("text"), str):
            reply.text = item["text"]
    else:
        text = item.get("text") if isinstance(item.get("text"), str) else message
        reply = Reply(text=text_of(text), seen=True)
    reply.finish_reason = _finish(finish) or reply.finish_reason
    return reply


def responses_echo(output: Any) -> tuple[str | None, list[dict[str, Any]]]:
    """OpenAI's Responses API answers with the request's instructions and tools in the response
    object: where the recorded input lacks them, they are what the model was given."""
    if not isinstance(output, dict) or output.get("object") != "response":
        return None, []
    instructions = output.get("instructions")
    return (instructions if isinstance(instructions, str) and instructions else None), tool_specs(output.get("tools"))
