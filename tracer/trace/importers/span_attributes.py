"""What a span's attributes say of the span itself (OpenInference, the GenAI conventions, the Vercel AI SDK): its role, its tool call and its trace's session, user and tags."""

from __future__ import annotations

from typing import Any

from .messages import call_id_text, compact, json_or_text

LLM, TOOL, OTHER = "llm", "tool", "other"
SPAN_KIND = "openinference.span.kind"
GENAI_LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content", "completion"})
# How frameworks prefix a tool span's name (pydantic-ai, the GenAI convention's `execute_tool NAME`).
TOOL_NAME_PREFIXES = ("running tool: ", "execute_tool ")


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
