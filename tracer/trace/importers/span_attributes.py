"""What a span's attributes say under OpenInference, the OpenTelemetry GenAI conventions and their older forms: role, model, request, reply, tool."""

from __future__ import annotations

import re
from typing import Any, Protocol

from .billed_tokens import attribute_parts
from .messages import Message, call_id_text, compact, content_of, json_or_text, messages_of
from .model_calls import Reply, Request, reply_of, request_of, tool_spec, tool_specs
from .shape import ShapeNotes


class _ModelCall(Protocol):
    """What messages_from_events fills in of a span (spans.Span, which imports this module's kinds)."""

    request: Request | None
    reply: Reply | None


LLM, TOOL, OTHER = "llm", "tool", "other"
SPAN_KIND = "openinference.span.kind"
GENAI_LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content", "completion"})
# How frameworks prefix a tool span's name (pydantic-ai, the GenAI convention's `execute_tool NAME`).
TOOL_NAME_PREFIXES = ("running tool: ", "execute_tool ")

SpanEvents = list[tuple[str, dict[str, Any]]]  # each span event's name and attributes


# The Vercel AI SDK's spans name their operation in ai.operationId: a provider call, or a tool's run.
VERCEL_MODEL_CALLS = frozenset(
    {"ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"}
)


def role_of_span(attrs: dict[str, Any]) -> str:
    kind = str(attrs.get(SPAN_KIND, "")).upper()
    operation = str(attrs.get("gen_ai.operation.name", ""))
    vercel = attrs.get("ai.operationId")
    if kind == "LLM" or (not kind and operation in GENAI_LLM_OPERATIONS) or vercel in VERCEL_MODEL_CALLS:
        return LLM
    if kind == "TOOL" or operation == "execute_tool" or vercel == "ai.toolCall":
        return TOOL
    if not kind and not operation and ("gen_ai.tool.name" in attrs or "tool.name" in attrs):
        return TOOL  # pydantic-ai's `running tool: X`, Koog's and Agno's tool spans carry only the tool's name
    return OTHER


# The lists OpenInference and OpenLLMetry flatten into `prefix.N.field` keys.
INDEXED = ("llm.input_messages", "llm.output_messages", "llm.tools", "gen_ai.prompt", "gen_ai.completion")
Indexed = dict[str, dict[int, dict[str, Any]]]  # prefix -> item number -> the item's fields, flat


_INDEXED_KEY = re.compile("(" + "|".join(re.escape(p) for p in INDEXED) + r")\.([0-9]{1,8})\.(.+)", re.DOTALL)


# The same keys come back in every span of a file (`llm.input_messages.3.message.content`): each is
# taken apart once (a regex, groups and int() a key, 45 keys a model call with its history).
# The files are untrusted: a file of ever new keys only empties the memo now and then.
_MAX_REMEMBERED = 4096
_INDEXED_PARTS: dict[str, tuple[str, int, str] | None] = {}


def _indexed_parts(key: str) -> tuple[str, int, str] | None:
    found = _INDEXED_KEY.match(key)
    if found is None:
        return None
    prefix, number, rest = found.groups()
    return prefix, int(number), rest


def indexed(attrs: dict[str, Any]) -> Indexed:
    """The span's flattened lists, gathered in one pass over its attributes."""
    groups: Indexed = {}
    remembered = _INDEXED_PARTS
    for key, value in attrs.items():
        parts = remembered.get(key)
        if parts is None:
            if key in remembered:  # seen: not a flattened list's
                continue
            parts = _remember(remembered, key, _indexed_parts(key))
            if parts is None:
                continue
        prefix, number, rest = parts
        groups.setdefault(prefix, {}).setdefault(number, {})[rest] = value
    return groups


def _remember(
    memo: dict[str, tuple[str, int, str] | None], key: str, parts: tuple[str, int, str] | None
) -> tuple[str, int, str] | None:
    if len(memo) >= _MAX_REMEMBERED:
        memo.clear()
    memo[key] = parts
    return parts


def unflattened(groups: Indexed, prefix: str) -> list[Any]:
    """A flattened list's items, in number order, each as nested objects (`message.role` -> {"message": {"role"}})."""
    items = groups.get(prefix)
    if not items:
        return []
    return [_nested(items[number]) for number in sorted(items)]


def _nested(flat: dict[str, Any]) -> Any:
    root: dict[str, Any] = {}
    for key, value in flat.items():
        holder, parts = root, key.split(".")
        for part in parts[:-1]:
            inner = holder.get(part)
            holder = holder.setdefault(part, {}) if not isinstance(inner, dict) else inner
        holder[parts[-1]] = value
    return _listed(root)


def _listed(value: Any) -> Any:
    """Objects whose keys are all digits become lists, in number order."""
    if not isinstance(value, dict):
        return value
    if value and all(key.isdigit() for key in value):
        return [_listed(value[key]) for key in sorted(value, key=int)]
    return {key: _listed(inner) for key, inner in value.items()}


_PLAIN_FIELDS = frozenset({"message.role", "message.content", "message.tool_call_id"})


_MESSAGE_ROUTES: dict[str, tuple[str, int, str] | None] = {}


def _message_route(key: str) -> tuple[str, int, str] | None:
    """Where a message's flat field goes: ("", 0, "role") for `message.role`, ("tool_calls", 0,
    "function.name") for `message.tool_calls.0.tool_call.function.name`; None for a field read nowhere."""
    field = key[len("message.") :] if key.startswith("message.") else key
    head, _, rest = field.partition(".")
    if not rest:
        return "", 0, field
    if head in ("contents", "tool_calls"):
        number, _, sub = rest.partition(".")
        if number.isdecimal():  # not isdigit(): int() refuses "²", which isdigit() takes
            return head, int(number), sub.partition(".")[2] or sub
    return None


def _openinference_message(flat: dict[str, Any]) -> Message:
    """One OpenInference message from its flat fields (`message.role`, `message.contents.0.message_content.text`,
    `message.tool_calls.0.tool_call.function.name` ...) as an OpenAI-shaped one, read field by field."""
    if flat.keys() <= _PLAIN_FIELDS:  # most are a role and a text: taken at once
        return {key[len("message.") :]: value for key, value in flat.items()}
    message: Message = {}
    contents: dict[int, dict[str, Any]] = {}
    calls: dict[int, dict[str, Any]] = {}
    remembered = _MESSAGE_ROUTES
    for key, value in flat.items():
        route = remembered.get(key)
        if route is None:
            if key in remembered:  # seen: a field read nowhere
                continue
            route = _remember(remembered, key, _message_route(key))
            if route is None:
                continue
        head, number, field = route
        if not head:
            message[field] = value
        else:
            (contents if head == "contents" else calls).setdefault(number, {})[field] = value
    if contents:
        message["content"] = [
            {"type": "text", "text": part["text"]} if "text" in part else part
            for part in (contents[n] for n in sorted(contents))
        ]
    if calls:
        message["tool_calls"] = [
            {
                "id": call.get("id"),
                "function": {"name": call.get("function.name"), "arguments": call.get("function.arguments")},
            }
            for call in (calls[n] for n in sorted(calls))
        ]
    return message


def _flattened_messages(groups: Indexed, side: str) -> list[Any] | None:
    """The message list under OpenInference's or OpenLLMetry's flattened keys, if the span has one."""
    oi = groups.get("llm.input_messages" if side == "input" else "llm.output_messages")
    if oi:
        return [_openinference_message(oi[number]) for number in sorted(oi)]
    old = unflattened(groups, "gen_ai.prompt" if side == "input" else "gen_ai.completion")
    return old or None


def _event_messages(events: SpanEvents, side: str, decoded: bool = False) -> list[Any]:
    """The older GenAI convention: one event per message (gen_ai.user.message, gen_ai.assistant.message
    with its tool_calls, gen_ai.tool.message with the id of the call it answers, gen_ai.choice). Span
    events hold JSON as text; `decoded` events (read from a JSON attribute) hold it read already, and a
    text in them is kept as it is."""
    read = (lambda value: value) if decoded else json_or_text
    found: list[Any] = []
    for name, event_attrs in events:
        if side == "input" and name.startswith("gen_ai.") and name.endswith(".message"):
            role = name[len("gen_ai.") : -len(".message")]
            message = {"role": event_attrs.get("role", role), "content": read(event_attrs.get("content"))}
            calls = json_or_text(event_attrs.get("tool_calls"))
            if isinstance(calls, list) and calls:
                message["tool_calls"] = calls
            call_id = event_attrs.get("tool_call_id", event_attrs.get("id") if role == "tool" else None)
            if call_id is not None:
                message["tool_call_id"] = call_id
            found.append(message)
        elif side == "output" and name == "gen_ai.choice":
            found.append(read(event_attrs.get("message", event_attrs.get("content"))))
    return found


# The GenAI convention's event holding a whole model call (opentelemetry-util-genai's EVENT_ONLY capture).
OPERATION_DETAILS = "gen_ai.client.inference.operation.details"


def messages_from_events(span: _ModelCall, events: SpanEvents) -> None:
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
    found = _event_messages(events, "input", decoded=True)
    if found and not request.messages and request.prompt is None:
        messages, offered = messages_of(found)
        request.messages, request.tools = messages, request.tools or tool_specs(offered)
    answered = _event_messages(events, "output", decoded=True)
    if answered and not reply.seen:
        made = reply_of(answered)
        made.finish_reason = made.finish_reason or reply.finish_reason
        reply = made
    span.request, span.reply = request, reply


def attribute_events(attrs: dict[str, Any]) -> SpanEvents:
    """pydantic-ai's events form (its instrumentation version 1, event_mode='attributes'): the model
    span's events, one per message, kept as a JSON list in its `events` attribute, each event's body and
    attributes in one object named by its `event.name`."""
    listed = json_or_text(attrs.get("events"))
    if not isinstance(listed, list):
        return []
    return [
        (item["event.name"], item)
        for item in listed
        if isinstance(item, dict) and isinstance(item.get("event.name"), str)
    ]


def request_from(attrs: dict[str, Any], events: SpanEvents, groups: Indexed | None = None) -> Request:
    groups = indexed(attrs) if groups is None else groups
    flattened = _flattened_messages(groups, "input")
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
        flattened = _event_messages(events, "input") or _event_messages(attribute_events(attrs), "input", True) or None
    if flattened is not None:
        messages, offered = messages_of(flattened)
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
    flattened = _flattened_messages(groups, "output")
    if flattened is None and "gen_ai.output.messages" in attrs:
        flattened = json_or_text(attrs["gen_ai.output.messages"])
        flattened = flattened if isinstance(flattened, list) else [flattened]
    if flattened is None:
        found = _event_messages(events, "output") or _event_messages(attribute_events(attrs), "output", True)
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


def tool_name_from(attrs: dict[str, Any], span_name: str) -> str:
    for key in ("gen_ai.tool.name", "tool.name", "ai.toolCall.name"):
        if isinstance(attrs.get(key), str) and attrs[key]:
            return attrs[key]
    for prefix in TOOL_NAME_PREFIXES:
        if span_name.startswith(prefix) and len(span_name) > len(prefix):
            return span_name[len(prefix) :]
    return span_name


def tool_call_id_from(attrs: dict[str, Any]) -> str | None:
    for key in ("gen_ai.tool.call.id", "tool_call.id", "ai.toolCall.id"):
        if attrs.get(key) not in (None, ""):
            return call_id_text(attrs[key])
    return None


TOOL_INPUT_KEYS = (
    "input.value",
    "gen_ai.tool.call.arguments",
    "tool.parameters",
    "tool_arguments",
    "gcp.vertex.agent.tool_call_args",
    "ai.toolCall.input",
    "ai.toolCall.args",
    "input",
)
TOOL_OUTPUT_KEYS = (
    "output.value",
    "gen_ai.tool.call.result",
    "tool_response",
    "gcp.vertex.agent.tool_response",
    "ai.toolCall.output",
    "ai.toolCall.result",
    "output",
)


def first_of(attrs: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((attrs[key] for key in keys if attrs.get(key) is not None), None)


_TRACE_FIELDS = (
    ("session_id", ("session.id", "langfuse.session.id", "gen_ai.conversation.id")),
    ("user_id", ("user.id", "langfuse.user.id")),
    ("tags", ("tag.tags", "langfuse.trace.tags")),
)
_TRACE_FIELD_KEYS = frozenset(key for _name, keys in _TRACE_FIELDS for key in keys)


def trace_fields_from(attrs: dict[str, Any]) -> dict[str, Any]:
    """The session, user and tags a span names for its trace (OpenInference, Langfuse's own keys)."""
    found: dict[str, Any] = {}
    if attrs.keys().isdisjoint(_TRACE_FIELD_KEYS):  # most spans name none: one pass, not seven lookups
        return found
    for field_name, keys in _TRACE_FIELDS:
        value = first_of(attrs, keys)
        if value is not None:
            found[field_name] = json_or_text(value) if field_name == "tags" else compact(value)
    return found
