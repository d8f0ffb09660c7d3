"""What each span says about its event, in OpenInference and OpenTelemetry GenAI attributes (no OpenTelemetry import)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from executor.events import ChainStartEvent, LLMEndEvent, LLMStartEvent, ToolEndEvent, ToolErrorEvent, ToolStartEvent

from ...trace import otel_mapping as om
from . import names as on

# A lone surrogate (half a UTF-16 pair, as text read with errors="surrogateescape" holds) cannot be
# UTF-8, which OTLP strings must be: span names and attributes carry U+FFFD in its place, while the
# event's own JSON (om.EVENT_JSON) keeps it \u-escaped, as the trace file does, so an import is exact.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

_TOKEN_KEYS = {  # an endpoint's usage keys (OpenAI's, Anthropic's) for each count
    om.LLM_TOKEN_COUNT_PROMPT: ("prompt_tokens", "input_tokens"),
    om.LLM_TOKEN_COUNT_COMPLETION: ("completion_tokens", "output_tokens"),
    om.LLM_TOKEN_COUNT_TOTAL: ("total_tokens",),
}
_GENAI_TOKENS = {
    om.LLM_TOKEN_COUNT_PROMPT: on.GEN_AI_USAGE_INPUT_TOKENS,
    om.LLM_TOKEN_COUNT_COMPLETION: on.GEN_AI_USAGE_OUTPUT_TOKENS,
}

Attributes = dict[str, Any]


def utf8(text: str) -> str:
    """`text` as UTF-8 can carry it: each lone surrogate becomes U+FFFD."""
    return text if text.isascii() else _LONE_SURROGATE.sub("\ufffd", text)


def utf8_values(attributes: Attributes) -> Attributes:
    """Every string (and every string in a list) as UTF-8 can carry it."""
    return {key: _utf8_value(value) for key, value in attributes.items()}


def _utf8_value(value: Any) -> Any:
    if isinstance(value, str):
        return utf8(value)
    if isinstance(value, list):
        return [utf8(item) if isinstance(item, str) else item for item in value]
    return value


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)  # default: a live message may hold any object


def root_attributes(
    event: ChainStartEvent, run_id: str, agent_name: str | None, scenario: str | None = None, agent: str | None = None
) -> Attributes:
    """The AGENT span of the run: what it was asked, its settings, a run id no other export shares."""
    attributes: Attributes = {
        om.INPUT_VALUE: _json(event.inputs),
        om.INPUT_MIME_TYPE: om.JSON_MIME,
        om.METADATA: _json(event.settings),
        om.RUN_ID: run_id,
        on.RECORDED_RUN_ID: event.run_id,
        on.GEN_AI_OPERATION_NAME: on.INVOKE_AGENT,
    }
    if agent_name:
        attributes |= {on.AGENT_NAME: agent_name, on.GEN_AI_AGENT_NAME: agent_name}
    # The header's own words, read back on import (a run exported, then imported, keeps its name).
    if scenario or (agent_name and not agent):
        attributes[om.SCENARIO] = scenario or agent_name
    if agent:
        attributes[om.AGENT_SPEC] = agent
    return attributes


def llm_start_attributes(event: LLMStartEvent) -> Attributes:
    """An LLM span as it opens: the model, the exact prompt, each message sent, the tools offered."""
    # A one-prompt (ReAct) call sends its prompt as one user message, as the providers do.
    messages = event.messages if event.messages is not None else [{"role": "user", "content": event.prompt}]
    attributes: Attributes = {
        om.LLM_MODEL_NAME: event.model,
        on.LLM_REQUEST_MODEL_NAME: event.model,
        om.INPUT_VALUE: event.prompt,
        om.INPUT_MIME_TYPE: om.TEXT_MIME,
        om.LLM_INVOCATION_PARAMETERS: _json({"stop": event.stop}),
        on.GEN_AI_OPERATION_NAME: on.CHAT,
        on.GEN_AI_REQUEST_MODEL: event.model,
        on.GEN_AI_INPUT_MESSAGES: _json([genai_message(m) for m in _mappings(messages)]),
        **openinference_messages(om.LLM_INPUT_MESSAGES, messages),
    }
    if event.stop:
        attributes[on.GEN_AI_REQUEST_STOP_SEQUENCES] = list(event.stop)
    if event.tools:
        for index, tool in enumerate(event.tools):
            attributes[f"{on.LLM_TOOLS}.{index}.{on.TOOL_JSON_SCHEMA}"] = _json(tool)
        attributes[on.GEN_AI_TOOL_DEFINITIONS] = _json(event.tools)
    return attributes


def llm_end_attributes(event: LLMEndEvent, requested_model: str) -> Attributes:
    """An LLM span as it closes: the reply and its tool calls, why it stopped, which model answered, tokens."""
    # As the chat API sends it back: a reply that only calls tools has no content.
    reply: dict[str, Any] = {"role": "assistant", "content": event.text or None if event.tool_calls else event.text}
    if event.tool_calls:
        reply["tool_calls"] = [call.model_dump() for call in event.tool_calls]
    reason = finish_reason(event)
    answered_by = event.answered_by or requested_model
    attributes: Attributes = {
        om.OUTPUT_VALUE: event.text,
        om.OUTPUT_MIME_TYPE: om.TEXT_MIME,
        on.LLM_FINISH_REASON: reason,
        on.LLM_RESPONSE_MODEL_NAME: answered_by,
        on.GEN_AI_RESPONSE_MODEL: answered_by,
        on.GEN_AI_RESPONSE_FINISH_REASONS: [reason],
        on.GEN_AI_OUTPUT_MESSAGES: _json([{**genai_message(reply), "finish_reason": reason}]),
        **openinference_messages(om.LLM_OUTPUT_MESSAGES, [reply]),
    }
    for name, keys in _TOKEN_KEYS.items():
        found = [event.usage[key] for key in keys if event.usage and key in event.usage]
        if found:
            attributes[name] = int(found[0])
            if name in _GENAI_TOKENS:
                attributes[_GENAI_TOKENS[name]] = int(found[0])
    return attributes


def finish_reason(event: LLMEndEvent) -> str:
    """Why the model stopped. loopscope records only a reason that is not a plain stop, so a reply
    without one stopped, or (with tool calls) stopped to call them: GenAI's "tool_call"."""
    return event.finish_reason or ("tool_call" if event.tool_calls else "stop")


def tool_start_attributes(
    event: ToolStartEvent | ToolErrorEvent, description: str | None, arguments: str | None
) -> Attributes:
    """A TOOL span as it opens: which tool, which call (its id), what it was handed (a call refused
    before the tool ran, opened by its tool_error, was handed nothing: its input is the arguments)."""
    handed = event.tool_input if event.kind == "tool_start" else arguments or ""
    attributes: Attributes = {
        om.TOOL_NAME: event.tool,
        om.INPUT_VALUE: handed,
        om.INPUT_MIME_TYPE: om.TEXT_MIME,
        on.GEN_AI_OPERATION_NAME: on.EXECUTE_TOOL,
        on.GEN_AI_TOOL_NAME: event.tool,
        on.GEN_AI_TOOL_TYPE: "function",
    }
    if event.tool_call_id:
        attributes |= {on.TOOL_CALL_ID: event.tool_call_id, on.GEN_AI_TOOL_CALL_ID: event.tool_call_id}
    if description:
        attributes |= {on.TOOL_DESCRIPTION: description, on.GEN_AI_TOOL_DESCRIPTION: description}
    if arguments is not None:  # as the model wrote them; input.value is what the tool was handed
        attributes[on.GEN_AI_TOOL_CALL_ARGUMENTS] = arguments
    return attributes


def tool_output_attributes(event: ToolEndEvent | ToolErrorEvent) -> Attributes:
    """A TOOL span's result: the observation (a failed call's, when it was handled), and the error."""
    observation = event.observation if event.kind == "tool_end" else event.observation or ""
    attributes: Attributes = {
        om.OUTPUT_VALUE: observation,
        om.OUTPUT_MIME_TYPE: om.TEXT_MIME,
        on.GEN_AI_TOOL_CALL_RESULT: observation,
    }
    if event.kind == "tool_error":
        attributes[on.ERROR_TYPE] = event.error_type
    return attributes


def openinference_messages(prefix: str, messages: Iterable[Any]) -> Attributes:
    """`prefix.N.message.role` / `.content` / `.tool_calls.M.tool_call.*` / `.tool_call_id`, one N per message."""
    attributes: Attributes = {}
    for index, message in enumerate(_mappings(messages)):
        at = f"{prefix}.{index}."
        attributes[at + om.MESSAGE_ROLE] = _text(message.get("role")) or "user"
        content = message.get("content")
        if isinstance(content, list):  # content parts (OpenAI's, Anthropic's): one entry each
            for number, part in enumerate(content):
                kind, text = _part(part)
                attributes[f"{at}{on.MESSAGE_CONTENTS}.{number}.{on.MESSAGE_CONTENT_TYPE}"] = kind
                attributes[f"{at}{on.MESSAGE_CONTENTS}.{number}.{on.MESSAGE_CONTENT_TEXT}"] = text
        elif content is not None:
            attributes[at + om.MESSAGE_CONTENT] = _text(content)
        for key, name in (("name", on.MESSAGE_NAME), ("tool_call_id", on.MESSAGE_TOOL_CALL_ID)):
            if message.get(key):
                attributes[at + name] = _text(message[key])
        for number, (call_id, name, arguments) in enumerate(tool_calls_of(message)):
            call_at = f"{at}{on.MESSAGE_TOOL_CALLS}.{number}."
            attributes[call_at + on.TOOL_CALL_FUNCTION_NAME] = name
            attributes[call_at + on.TOOL_CALL_FUNCTION_ARGUMENTS] = arguments
            if call_id:
                attributes[call_at + on.TOOL_CALL_ID] = call_id
    return attributes


def genai_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """One message in the GenAI conventions' shape: a role and its parts (text, tool_call, tool_call_response)."""
    role, content = _text(message.get("role")) or "user", message.get("content")
    if role == "tool":
        return {"role": role, "parts": [{"type": "tool_call_response", "id": _text(message.get("tool_call_id")),
                                          "response": _text(content)}]}  # fmt: skip
    parts: list[dict[str, Any]] = []
    if isinstance(content, list):
        parts += [{"type": "text", "content": _part(part)[1]} for part in content]
    elif content:
        parts.append({"type": "text", "content": _text(content)})
    for call_id, name, arguments in tool_calls_of(message):
        parts.append({"type": "tool_call", "id": call_id, "name": name, "arguments": _arguments(arguments)})
    return {"role": role, "parts": parts}


def tool_calls_of(message: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(id, name, arguments) of each tool call in a message: OpenAI's {"function": {...}} or loopscope's record."""
    calls = message.get("tool_calls")
    found = []
    for call in calls if isinstance(calls, list) else ():
        if not isinstance(call, Mapping):
            continue
        function = call.get("function")
        named = function if isinstance(function, Mapping) else call
        arguments = named.get("arguments", "")
        found.append(
            (
                _text(call.get("id")),
                _text(named.get("name")),
                arguments if isinstance(arguments, str) else _json(arguments),
            )
        )
    return found


def _arguments(text: str) -> Any:
    """The arguments as the GenAI conventions want them (an object) when they are JSON, else the text."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's limit: untrusted text
        return text


def _part(part: Any) -> tuple[str, str]:
    """(type, text) of one content part; a part that is not text is kept as its JSON."""
    if isinstance(part, Mapping) and isinstance(part.get("text"), str):
        return _text(part.get("type")) or "text", part["text"]
    return "text", _text(part)


def _mappings(messages: Iterable[Any]) -> list[Mapping[str, Any]]:
    """The messages that are objects; an imported trace's message of another shape is shown as text."""
    return [m if isinstance(m, Mapping) else {"role": "user", "content": _text(m)} for m in messages]


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else _json(value)
