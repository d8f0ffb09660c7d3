"""LangChain objects read as loopscope event fields: settings, tools, prompts, replies, token counts."""

from __future__ import annotations

import json
from typing import Any

from executor.events import ToolCallRecord, ToolInfo
from executor.models.messages import Message

# A value LangChain hands a callback is the user's object: it may hold itself, nest without end, or
# be huge. Past these bounds it is cut short, with a marker, never a RecursionError.
_MAX_NESTING = 64
_MAX_ITEMS = 100_000


def plain(value: Any) -> Any:
    """A JSON-safe copy of what LangChain hands a callback (messages become role/content dicts). A
    container holding itself becomes "[...]" where it recurs, as repr writes it; anything nested past
    _MAX_NESTING levels or beyond _MAX_ITEMS values is "…"; an object is its repr (or its type's name)."""
    return _Plain().copy(value, ())


class _Plain:
    def __init__(self) -> None:
        self.left = _MAX_ITEMS

    def copy(self, value: Any, within: tuple[int, ...]) -> Any:
        self.left -= 1
        if isinstance(value, (str, int, float, bool)) or value is None:
            return value
        if id(value) in within:
            return "[...]"
        if len(within) >= _MAX_NESTING or self.left <= 0:
            return "…"
        within = within + (id(value),)
        if isinstance(value, dict):
            return {safe_text(k, str): self.copy(v, within) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.copy(v, within) for v in value]
        converted = _openai_message(value)
        if converted is not None:  # the shape llm_start records, so a run's messages read alike everywhere
            return self.copy(converted, within)
        message = _message_parts(value)
        if message is not None:  # a message-like object LangChain cannot convert
            copied = {"role": safe_text(message[0], str), "content": self.copy(message[1], within)}
            if message[2]:
                copied["tool_calls"] = self.copy(message[2], within)
            return copied
        return safe_text(value, repr)


def _openai_message(value: Any) -> dict[str, Any] | None:
    """A LangChain message in the OpenAI chat shape (role user/assistant/tool, tool_calls, tool_call_id)."""
    if not type(value).__module__.startswith("langchain_core.messages"):
        return None
    from langchain_core.messages import convert_to_openai_messages  # here: see _bound_model

    try:
        converted = convert_to_openai_messages(value)
    except Exception:  # a message LangChain cannot convert: read as role and content below
        return None
    return converted if isinstance(converted, dict) else None


def _message_parts(value: Any) -> tuple[Any, Any, Any] | None:
    """(type, content, tool_calls) of a message-like object; None when it is none (or its attributes raise)."""
    try:
        if hasattr(value, "type") and hasattr(value, "content"):
            return value.type, value.content, getattr(value, "tool_calls", None)
    except Exception:  # a property that raises: not a message we can read
        return None
    return None


def safe_text(value: Any, show: Any = str) -> str:
    """show(value) (str or repr); when that raises, or gives no str, `<TypeName>` instead."""
    try:
        text = show(value)
    except Exception:  # the object's own __str__ / __repr__ failed
        return f"<{type(value).__name__}>"
    return text if isinstance(text, str) else f"<{type(value).__name__}>"


def as_text(value: Any) -> str:
    """A tool input or output as the text loopscope stores (dicts as JSON, messages as content)."""
    if isinstance(value, str):
        return value
    try:
        if hasattr(value, "content"):  # a ToolMessage from a LangGraph ToolNode
            value = value.content
    except Exception:  # a `content` that raises is no content: the object is shown as it is
        pass
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return json.dumps(plain(value), ensure_ascii=False)
    return safe_text(value)


def model_name(serialized: dict[str, Any] | None, params: dict[str, Any] | None) -> str:
    params = params if isinstance(params, dict) else {}
    for key in ("model_name", "model", "_type"):
        if params.get(key):
            return safe_text(params[key])
    return safe_text((serialized if isinstance(serialized, dict) else {}).get("name") or "unknown")


def _bound_model(agent: Any) -> tuple[Any, list[str]]:
    """The language model inside an agent's runnable, and the stop words bound to it."""
    # Here, not at the top: the handler imports this module before LangChain, whose absence it names
    # in one line (`pip install 'loopscope[langchain]'`); by the time a run is read, both are loaded.
    from langchain_core.language_models import BaseLanguageModel
    from langchain_core.runnables import RunnableBinding

    runnable = getattr(agent, "runnable", None)
    for step in getattr(runnable, "steps", ()) or ():
        if isinstance(step, RunnableBinding) and isinstance(step.bound, BaseLanguageModel):
            return step.bound, list(step.kwargs.get("stop") or [])
        if isinstance(step, BaseLanguageModel):
            return step, []
    return None, []


def language_model_name(model: Any) -> str:
    for attribute in ("model_name", "model"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return getattr(model, "_llm_type", type(model).__name__)


def executor_settings(executor: Any) -> dict[str, Any]:
    """An AgentExecutor's settings, under the names loopscope's chain_start uses."""
    model, stop = _bound_model(executor.agent)
    handle = executor.handle_parsing_errors
    return {
        "max_iterations": executor.max_iterations,
        "max_execution_time": executor.max_execution_time,
        "early_stopping_method": executor.early_stopping_method,
        "handle_parsing_errors": handle if isinstance(handle, (bool, str)) else repr(handle),
        "return_intermediate_steps": executor.return_intermediate_steps,
        "trim_intermediate_steps": executor.trim_intermediate_steps,
        "model": language_model_name(model) if model is not None else "unknown",
        "stop": stop,
    }


def tool_infos(tools: Any) -> list[ToolInfo]:
    return [
        ToolInfo(name=t.name, description=t.description or "", return_direct=bool(t.return_direct)) for t in tools or ()
    ]


def reply_of(response: Any) -> tuple[str, list[dict[str, Any]], dict[str, int] | None]:
    """An LLMResult's text, its tool calls (chat models), and the token counts when reported."""
    generation = response.generations[0][0] if response.generations and response.generations[0] else None
    message = getattr(generation, "message", None)
    text = generation.text if generation is not None else ""
    if message is not None:  # a chat reply: its content is the text (a reply of only tool calls has "")
        text = message.content if isinstance(message.content, str) else as_text(message.content)
    calls = list(getattr(message, "tool_calls", None) or [])
    usage = getattr(message, "usage_metadata", None) or (response.llm_output or {}).get("token_usage")
    counts = {k: int(v) for k, v in (usage or {}).items() if isinstance(v, int)} or None
    return text, calls, counts


def call_records(calls: list[dict[str, Any]]) -> list[ToolCallRecord] | None:
    """A reply's tool calls as llm_end records them: id, name, and the arguments as JSON text."""
    if not calls:
        return None
    return [
        ToolCallRecord(
            id=safe_text(call.get("id") or ""), name=safe_text(call.get("name") or ""), arguments=arguments_of(call)
        )
        for call in calls
    ]


def arguments_of(call: dict[str, Any]) -> str:
    """A tool call's arguments as the JSON text a model writes (LangChain hands them over parsed)."""
    args = call.get("args", {})
    return args if isinstance(args, str) else json.dumps(plain(args), ensure_ascii=False)


def openai_messages(messages: list[Any]) -> list[Message]:
    """LangChain messages in the OpenAI chat shape loopscope's llm_start records (role, content, tool_calls)."""
    # Here, not at the top: see _bound_model.
    from langchain_core.messages import convert_to_openai_messages

    try:
        converted = convert_to_openai_messages(messages)
    except Exception:  # a message LangChain cannot convert: each is kept as role and content
        return [m for m in plain(messages) if isinstance(m, dict)]
    return [plain(message) for message in converted]


def offered_tools(params: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """The tools a chat model was bound to (bind_tools puts them in its invocation params)."""
    tools = (params if isinstance(params, dict) else {}).get("tools")
    return [plain(tool) for tool in tools if isinstance(tool, dict)] or None if isinstance(tools, list) else None
