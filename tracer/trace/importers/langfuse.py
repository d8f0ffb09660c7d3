"""Langfuse trace exports (the public API's trace with its observations, and the seeder's {trace, observations}) read as spans and trace info."""

from __future__ import annotations

from typing import Any

from .framework_spans import is_tool_message, tool_message_fields
from .messages import json_or_text
from .model_calls import Reply, reply_of, request_of, responses_echo, tool_specs
from .otlp import fill_span
from .run_exports import error_of, item_name, seconds, usage
from .shape import ShapeNotes, identifier, name_text
from .span_attributes import LLM, OTHER, TOOL, TOOL_NAME_PREFIXES, role_of_span, trace_fields_from
from .spans import Span, TraceInfo

# Trace fields kept with the run besides its input and output (the UI's own flags are not the run's).
TRACE_FIELDS = (
    ("sessionId", "session_id"),
    ("userId", "user_id"),
    ("tags", "tags"),
    ("release", "release"),
    ("version", "version"),
    ("environment", "environment"),
    ("metadata", "metadata"),
)
SCORE_FIELDS = ("name", "value", "stringValue", "dataType", "source", "comment", "observationId", "timestamp")


def is_langfuse(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(t, dict) and isinstance(t.get("observations"), list) for t in items)


def _usage(observation: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    key = "usageDetails" if observation.get("usageDetails") else "usage"
    counts = notes.mapping(observation.get(key) or None, f"{where}: {key}", "token counts")
    return (
        usage(counts, "input", "output", f"{where}: {key}.", notes)
        or usage(counts, "promptTokens", "completionTokens", f"{where}: {key}.", notes)
        or usage(observation, "promptTokens", "completionTokens", f"{where}: ", notes)
    )


def _attributes(observation: dict[str, Any]) -> dict[str, Any]:
    """The OpenTelemetry attributes Langfuse kept of the span the observation came from (metadata.attributes)."""
    metadata = json_or_text(observation.get("metadata"))
    found = metadata.get("attributes") if isinstance(metadata, dict) else None
    return found if isinstance(found, dict) else {}


def _role(kind: str, o: dict[str, Any], attrs: dict[str, Any]) -> str:
    if kind == "GENERATION":
        return LLM
    if kind == "TOOL" or is_tool_message(json_or_text(o.get("output"))):
        return TOOL  # LangGraph's tools run as SPANs; their output is a LangChain ToolMessage
    name = o.get("name")
    if isinstance(name, str) and name.startswith(TOOL_NAME_PREFIXES):
        return TOOL
    return role_of_span(attrs) if role_of_span(attrs) == TOOL else OTHER


def _span(o: dict[str, Any], where: str, trace_id: str, notes: ShapeNotes) -> Span:
    kind = str(o.get("type", "")).upper()
    attrs = _attributes(o)
    role = _role(kind, o, attrs)
    start = seconds(o.get("startTime"), f"{where}: startTime", notes)
    end = seconds(o.get("endTime"), f"{where}: endTime", notes) if o.get("endTime") else start
    span = Span(
        span_id=identifier(o.get("id")) or where,
        parent_id=identifier(o.get("parentObservationId")) or trace_id,
        name=name_text(o.get("name"), kind.lower() or "observation"),
        role=role,
        start=start,
        end=end,
        trace_id=trace_id,
        error=error_of(o.get("statusMessage") or "Error: failed") if o.get("level") == "ERROR" else None,
        trace_fields=trace_fields_from(attrs) or None,
    )
    fill_span(span, attrs, [], where, notes)  # what the span's attributes say; the observation's own fields win
    if role == LLM:
        _model_call(span, o, attrs, where, notes)
    elif role == TOOL:
        _tool_call(span, o)
    return span


def _model_call(span: Span, o: dict[str, Any], attrs: dict[str, Any], where: str, notes: ShapeNotes) -> None:
    from_attributes = span.request.tools if span.request is not None else []
    if o.get("input") is not None:
        span.request = request_of(o["input"])
    output = json_or_text(o.get("output"))
    if output is not None:
        reply = reply_of(output)
        reason = span.reply.finish_reason if span.reply is not None else None
        span.reply = Reply(reply.text, reply.tool_calls, reply.finish_reason or reason, True, reply.partial)
    request = span.request
    if request is not None:
        instructions, offered = responses_echo(output)
        if instructions and request.messages is not None and not any(m["role"] == "system" for m in request.messages):
            request.messages.insert(0, {"role": "system", "content": instructions})
        function_tools = attrs.get("model_request_parameters")  # pydantic-ai's tools offered
        if isinstance(function_tools, dict):
            offered += tool_specs(function_tools.get("function_tools")) + tool_specs(function_tools.get("output_tools"))
        request.tools = request.tools or offered or from_attributes
    span.model = o["model"] if isinstance(o.get("model"), str) and o["model"] else span.model
    span.usage = _usage(o, where, notes) or span.usage


def _tool_call(span: Span, o: dict[str, Any]) -> None:
    """A tool observation's input and output; empty ones fall back to what its attributes recorded."""
    given, output = json_or_text(o.get("input")), json_or_text(o.get("output"))
    if given not in (None, "", {}):
        span.inputs = given
    if output not in (None, "", {}):
        span.output = output
    if is_tool_message(span.output):
        content, call_id, failed = tool_message_fields(span.output)
        span.output, span.tool_call_id = content, span.tool_call_id or call_id
        span.error = span.error or (("ToolError", str(content)) if failed else None)


def _trace_info(trace: dict[str, Any], trace_id: str, notes: ShapeNotes, where: str) -> TraceInfo:
    info = TraceInfo(trace_id=trace_id, name=name_text(trace.get("name"), "") or None)
    info.input, info.output = _decoded(trace.get("input")), _decoded(trace.get("output"))
    for key, field_name in TRACE_FIELDS:
        value = json_or_text(trace.get(key))
        if value not in (None, "", [], {}):
            info.fields[field_name] = value
    for _at, score in notes.objects(trace.get("scores"), f"{where}: scores"):
        info.scores.append({key: score[key] for key in SCORE_FIELDS if score.get(key) is not None})
    return info


def _scores_given_to_observations(
    scores: list[dict[str, Any]], observations: list[Span], run_itself: Span | None
) -> list[dict[str, Any]]:
    """The run's own scores; each score naming one of its observations (an evaluator's verdict on a
    model call, a thumbs-down on a tool) goes to that observation, whose event it then belongs to."""
    by_id = {span.span_id: span for span in observations if span is not run_itself}
    own = []
    for score in scores:
        named = score.get("observationId")
        span = by_id.get(named) if isinstance(named, str) else None  # a list or a number names nothing
        if span is None:
            own.append(score)
        else:
            span.scores = [*(span.scores or []), score]
    return own


def _decoded(value: Any) -> Any:
    """A trace's input or output: Langfuse keeps it as JSON text, and a value that was itself JSON
    text (an agent's serialised result) twice over."""
    value = json_or_text(value)
    inner = json_or_text(value) if isinstance(value, str) else value
    return inner if not isinstance(inner, str) else value


def langfuse_traces(items: list[dict[str, Any]], notes: ShapeNotes) -> list[tuple[TraceInfo, list[Span]]]:
    """Each trace: its info, and its spans (the trace itself the root; observations under it by
    parentObservationId). Both the public API's shape and the seeder's {trace, observations} are read."""
    found = []
    for index, item in enumerate(items):
        trace: dict[str, Any] = item["trace"] if isinstance(item.get("trace"), dict) else item
        where = item_name("trace", trace, f"traces[{index}]")
        trace_id = identifier(trace.get("id")) or f"trace-{index + 1}"
        observations = [
            _span(o, item_name("observation", o, at), trace_id, notes)
            for at, o in notes.objects(item["observations"], f"{where}: observations")
        ]
        times = [t for o in observations for t in (o.start, o.end) if t is not None]
        start = seconds(trace.get("timestamp"), f"{where}: timestamp", notes)
        start = min([start, *times]) if start is not None else min(times, default=None)
        info = _trace_info(trace, trace_id, notes, where)
        tops = [o for o in observations if o.parent_id == trace_id]
        run_itself = tops[0] if len(tops) == 1 and tops[0].role == OTHER else None
        info.scores = _scores_given_to_observations(info.scores, observations, run_itself)
        if run_itself is not None:  # the trace's one top observation is the run itself
            run_itself.parent_id = None
            found.append((info, observations))
            continue
        name = info.name or "trace"
        root = Span(trace_id, None, name, OTHER, start, max(times + [start]) if start is not None else None)
        root.trace_id, root.inputs, root.output = trace_id, info.input, info.output
        found.append((info, [root, *observations]))
    return found
