"""The fields of the events an imported span makes: the run's start and end, a model call's start and end, a tool call's start and end."""

from __future__ import annotations

from typing import Any

from executor.events import (
    EventBase,
    ToolCallRecord,
    ToolEndEvent,
    ToolErrorEvent,
    ToolInfo,
)
from executor.models.messages import render_messages

from .messages import compact, json_or_text
from .model_calls import Reply
from .run_tree import each_span
from .spans import LLM, TOOL, Span, TraceInfo, text_of

# Finish reasons that say only that the model stopped as it should (llm_end keeps the others).
PLAIN_STOPS = frozenset({"stop", "end_turn", "completed"})


def claim_call(span: Span, pending: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The model's call a tool span ran: the one of its id, or (a span without the model's call id)
    the earliest unclaimed call of its name, whose id it then gets."""
    for index, call in enumerate(pending):
        if call["id"] == span.tool_call_id or (span.tool_call_id is None and call["name"] == span.name):
            span.tool_call_id = call["id"] or None
            del pending[index]
            return call
    return None


def tool_input_given(inputs: Any, call: dict[str, Any] | None) -> str:
    """What a tool was given, as text. When the span records the arguments of the model's call it ran
    as JSON of another spacing (`{"city":"Paris"}`), or, as OpenInference's LangChain tool spans do, only
    the one argument's value (`Paris`), the tool was given those arguments: they are shown as the model
    wrote them. Anything else the span says (a Python repr too) is kept as recorded."""
    text = compact(inputs)
    if call is None:
        return text
    asked = json_or_text(call["arguments"])
    if inputs == asked:
        return call["arguments"]
    only_value = isinstance(asked, dict) and len(asked) == 1 and inputs == compact(next(iter(asked.values())))
    return call["arguments"] if only_value and isinstance(inputs, str) else text


def llm_start_fields(span: Span, inside_tool: str | None) -> dict[str, Any]:
    request = span.request
    messages = request.messages if request is not None else None
    if messages is not None:
        prompt = render_messages(messages)
    else:
        prompt = request.prompt or "" if request is not None else ""
    return {
        "model": span.model or "unknown",
        "prompt": prompt,
        "stop": [],
        "messages": messages,
        "tools": (request.tools or None) if request is not None else None,
        "tool_call_id": inside_tool,
    }


def llm_end_fields(span: Span, inside_tool: str | None) -> dict[str, Any]:
    reply = span.reply or Reply()
    finish = reply.finish_reason
    if span.error:
        finish = f"error ({span.error[0]}: {span.error[1]})"[:300]
    start, end = span.start or 0.0, span.end or 0.0
    return {
        "text": reply.text,
        "usage": span.usage,
        "duration": round(max(end - start, 0.0), 6),
        "finish_reason": finish if finish and finish.lower() not in PLAIN_STOPS else None,
        "tool_calls": [ToolCallRecord(**call) for call in reply.tool_calls] or None,
        "tool_call_id": inside_tool,
        "partial": reply.partial if reply.seen or span.error else reply.partial or NO_REPLY,
    }


NO_REPLY = "the file holds no reply for this call"


def tool_end_event(span: Span, handled: bool) -> tuple[type[EventBase], dict[str, Any]]:
    common = {"tool": span.name, "tool_call_id": span.tool_call_id}
    if span.error:
        return ToolErrorEvent, {
            **common,
            "error_type": span.error[0],
            "message": span.error[1],
            "handled": handled,
            "observation": None,
        }
    return ToolEndEvent, {**common, "observation": compact(span.output)}


def _as_inputs(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    return {} if value is None else {"input": value if isinstance(value, (str, list)) else text_of(value)}


def chain_start_fields(root: Span, info: TraceInfo) -> dict[str, Any]:
    tools: dict[str, str] = {}
    for span in each_span(root):
        if span.role == TOOL:
            tools.setdefault(span.name, "")
        for spec in span.request.tools if span.role == LLM and span.request is not None else ():
            function = spec.get("function", {})
            if isinstance(function.get("name"), str):
                description = function.get("description")
                if not tools.get(function["name"]):
                    tools[function["name"]] = description if isinstance(description, str) else ""
    origin = {
        key: value
        for key, value in (("trace_id", info.trace_id), ("trace_name", info.name), *info.fields.items())
        if value not in (None, "", [], {})
    }
    return {
        "inputs": _as_inputs(info.input if info.input is not None else root.inputs),
        "tools": [ToolInfo(name=name, description=description) for name, description in tools.items()],
        "settings": {"imported": True},
        **({"origin": origin} if origin else {}),
    }


def run_scores(info: TraceInfo) -> dict[str, Any]:
    return {"origin": {"scores": info.scores}} if info.scores else {}
