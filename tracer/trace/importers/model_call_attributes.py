"""A model call's span attributes read as its request, reply, model and token usage (OpenInference, the GenAI conventions, OpenLLMetry, the Vercel AI SDK)."""

from __future__ import annotations

from typing import Any

from .billed_tokens import attribute_parts
from .flattened_keys import Indexed, flattened_messages, indexed, unflattened
from .message_events import SpanEvents, attribute_events, event_messages
from .messages import compact, content_of, json_or_text, messages_of
from .model_calls import Reply, Request, reply_of, request_of, tool_spec, tool_specs
from .responses_turns import is_responses_input, joined_turns
from .shape import ShapeNotes
from .spans import Span

# The GenAI convention's event holding a whole model call (opentelemetry-util-genai's EVENT_ONLY capture).
OPERATION_DETAILS = "gen_ai.client.inference.operation.details"


def messages_from_events(span: Span, events: SpanEvents) -> None:
    """A model call's messages and reply from its events, read already (log records' bodies and
    attributes), where its attributes held none: one event per message (the older GenAI events), or
    the whole call in one (gen_ai.client.inference.operation.details, its `gen_ai.input.messages` ...).
    The tools offered, finish reason and usage its attributes gave are kept."""
    request, reply = span.request or Request(), span.reply or Reply()
    details = next((attrs for name, attrs in events if name == OPERATION_DETAILS), None)
    if details is not None:  # the whole call in one event's attributes, as a span would hold them
        if not request.messages and request.prompt is None:
            asked = request_from(details, [])
            asked.tools = request.tools or asked.tools
            request = asked if asked.messages is not None else request
        if not reply.seen:
            made = reply_from(details, [])
            reply = made if made.seen else reply
    found = event_messages(events, "input", decoded=True)
    if found and not request.messages and request.prompt is None:
        messages, offered = messages_of(found)
        request.messages, request.tools = messages, request.tools or tool_specs(offered)
    answered = event_messages(events, "output", decoded=True)
    if answered and not reply.seen:
        made = reply_of(answered)
        made.finish_reason = made.finish_reason or reply.finish_reason
        reply = made
    span.request, span.reply = request, reply


def request_from(attrs: dict[str, Any], events: SpanEvents, groups: Indexed | None = None) -> Request:
    groups = indexed(attrs) if groups is None else groups
    flattened = flattened_messages(groups, "input")
    if flattened is None and "gen_ai.input.messages" in attrs:
        flattened = json_or_text(attrs["gen_ai.input.messages"])
        flattened = flattened if isinstance(flattened, list) else [flattened]
    if flattened is None and "gen_ai.prompt" in attrs:
        flattened = json_or_text(attrs["gen_ai.prompt"])
        flattened = flattened if isinstance(flattened, list) else None
    if flattened is None and "ai.prompt.messages" in attrs:  # the Vercel AI SDK's provider call
        flattened = json_or_text(attrs["ai.prompt.messages"])
        flattened = flattened if isinstance(flattened, list) else None
    if flattened is None:
        flattened = event_messages(events, "input") or event_messages(attribute_events(attrs), "input", True) or None
    if flattened is not None:
        messages, offered = messages_of(flattened)
        if "llm.input_messages" in groups and is_responses_input(attrs.get("input.value")):
            messages = joined_turns(messages)  # the flattened list splits each turn the way the items do
        request = Request(messages=messages, tools=tool_specs(offered))
    elif "llm.prompts" in attrs:
        prompts = json_or_text(attrs["llm.prompts"])
        request = Request(prompt="\n\n".join(map(compact, prompts)) if isinstance(prompts, list) else compact(prompts))
    else:
        request = request_of(attrs.get("input.value", attrs.get("input")))
    instructions = attrs.get("gen_ai.system_instructions")
    if instructions is not None and request.messages is not None:
        request.messages.insert(0, {"role": "system", "content": content_of(json_or_text(instructions)).text})
    request.tools = request.tools or _tools_offered(attrs, groups)
    return request


def _tools_offered(attrs: dict[str, Any], groups: Indexed) -> list[dict[str, Any]]:
    if "model_request_parameters" in attrs:  # pydantic-ai's: its tool definitions whole (strict too)
        found = _pydantic_ai_tools(json_or_text(attrs["model_request_parameters"]))
        if found:
            return found
    for key in ("gen_ai.tool.definitions", "llm.tools"):
        if key in attrs:
            return tool_specs(attrs[key])
    return tool_specs([item for item in unflattened(groups, "llm.tools") if isinstance(item, dict)])


def _pydantic_ai_tools(parameters: Any) -> list[dict[str, Any]]:
    """The tools a pydantic-ai model request offered (its function tools, then its output tools), as
    OpenAI function specs; `strict` as its definition says (gen_ai.tool.definitions leaves it out)."""
    if not isinstance(parameters, dict):
        return []
    specs: list[dict[str, Any]] = []
    for key in ("function_tools", "output_tools"):
        for definition in parameters.get(key) or ():
            spec = tool_spec(definition) if isinstance(definition, dict) else None
            if spec is None:
                continue
            if definition.get("strict") is True:
                spec["function"]["strict"] = True
            specs.append(spec)
    return specs


def reply_from(attrs: dict[str, Any], events: SpanEvents, groups: Indexed | None = None) -> Reply:
    groups = indexed(attrs) if groups is None else groups
    flattened = flattened_messages(groups, "output")
    if flattened is None and "gen_ai.output.messages" in attrs:
        flattened = json_or_text(attrs["gen_ai.output.messages"])
        flattened = flattened if isinstance(flattened, list) else [flattened]
    if flattened is None:
        found = event_messages(events, "output") or event_messages(attribute_events(attrs), "output", True)
        flattened = found or None
    if flattened is not None:
        reply = reply_of(flattened)
    elif "ai.response.text" in attrs or "ai.response.toolCalls" in attrs:
        reply = _vercel_reply(attrs)
    else:
        reply = reply_of(attrs.get("output.value", attrs.get("gen_ai.completion", attrs.get("output"))))
    reply.partial = _missing_chunks(groups.get("llm.output_messages"))
    reasons = json_or_text(attrs.get("gen_ai.response.finish_reasons"))
    if reply.finish_reason is None and isinstance(reasons, list) and reasons:
        reply.finish_reason = compact(reasons[0])
    return reply


def _vercel_reply(attrs: dict[str, Any]) -> Reply:
    """The Vercel AI SDK's reply: ai.response.text, and ai.response.toolCalls as JSON text
    ([{toolCallId, toolName, input}], `args` before v5)."""
    calls = json_or_text(attrs.get("ai.response.toolCalls"))
    reply = reply_of(calls) if isinstance(calls, list) else Reply(seen=True)
    text = attrs.get("ai.response.text")
    reply.text = text if isinstance(text, str) else reply.text
    reason = attrs.get("ai.response.finishReason")
    reply.finish_reason = compact(reason) if reason not in (None, "") else reply.finish_reason
    return reply


def _missing_chunks(numbered: dict[int, dict[str, Any]] | None) -> str | None:
    """A streamed reply kept one chunk a message (BeeAI): numbers that do not run 0, 1, 2 ... say the
    file lost chunks, so the text is a part of the reply, not the reply."""
    if not numbered or len(numbered) == max(numbered) + 1:
        return None
    return (
        f"the file keeps {len(numbered)} of at least {max(numbered) + 1} streamed chunks (from chunk {min(numbered)})"
    )


def model_from(attrs: dict[str, Any]) -> str:
    for key in ("llm.model_name", "gen_ai.response.model", "gen_ai.request.model", "ai.model.id"):
        if isinstance(attrs.get(key), str) and attrs[key]:
            return attrs[key]
    return ""


_TOKEN_KEYS = (
    ("llm.token_count.prompt", "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "ai.usage.inputTokens"),
    (
        "llm.token_count.completion",
        "gen_ai.usage.output_tokens",
        "gen_ai.usage.completion_tokens",
        "ai.usage.outputTokens",
    ),
)


def usage_from(attrs: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    prompt, completion = (
        next(((key, attrs[key]) for key in keys if key in attrs), (None, None)) for keys in _TOKEN_KEYS
    )
    if prompt[0] is None or completion[0] is None:
        return None
    prompt_count, completion_count = (
        notes.count(value, f"{where}: attribute {key}") for key, value in (prompt, completion)
    )
    if prompt_count is None or completion_count is None:
        return None
    total = None
    if "llm.token_count.total" in attrs:
        total = notes.count(attrs["llm.token_count.total"], f"{where}: attribute llm.token_count.total")
    found = {
        "prompt_tokens": prompt_count,
        "completion_tokens": completion_count,
        "total_tokens": total if total is not None else prompt_count + completion_count,
    }
    return attribute_parts(attrs, found)
