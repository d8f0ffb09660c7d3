"""LangSmith run exports and Langfuse trace exports (their APIs' JSON) read as spans."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from .shape import ShapeNotes, identifier, name_text, quoted
from .spans import LLM, OTHER, TOOL, Span, messages_text, text_of

LANGFUSE_LLM_TYPES = {"GENERATION"}
LANGFUSE_TOOL_TYPES = {"TOOL"}


def _seconds(value: Any, where: str, notes: ShapeNotes) -> float | None:
    """Seconds since 1970 from an ISO 8601 time (or a number of seconds); None when missing, and None
    (noted) when it is no time: "2024-02-30T25:61:00Z", "soon", 1e400."""
    if value in (None, ""):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except (ValueError, OverflowError, OSError):
            pass  # noted below with the others
    notes.note(where, value, "a time")
    return None


def _message(value: Any) -> dict[str, Any]:
    """A chat message in any of the shapes these exports use: LangChain's serialised form, OpenAI's.
    A shape not understood keeps its whole value as the content, so nothing it says is lost."""
    if not isinstance(value, dict):
        return {"role": "message", "content": value}
    if "kwargs" in value:  # LangChain's {"lc": 1, "id": [..., "HumanMessage"], "kwargs": {...}}
        kwargs, path = value["kwargs"], value.get("id")
        role = path[-1] if isinstance(path, list) and path and isinstance(path[-1], str) else "message"
        if not isinstance(kwargs, dict):  # e.g. a string: it is what the message says
            return {"role": role, "content": kwargs}
        return {"role": _text_or(kwargs.get("type"), role), "content": kwargs.get("content")}
    return {
        "role": _text_or(value.get("role"), _text_or(value.get("type"), "message")),
        "content": value.get("content"),
    }


def _text_or(value: Any, default: str) -> str:
    return value if isinstance(value, str) and value else default


def _messages_text(messages: Any) -> str:
    if not isinstance(messages, list):
        return text_of(messages)
    if messages and isinstance(messages[0], list):  # LangChain batches: one list per prompt
        messages = messages[0]
    return messages_text([_message(m) for m in messages])


def _prompt(inputs: Any) -> str:
    if isinstance(inputs, dict):
        if inputs.get("messages"):
            return _messages_text(inputs["messages"])
        if inputs.get("prompts"):
            prompts = inputs["prompts"]
            return "\n\n".join(text_of(p) for p in prompts) if isinstance(prompts, list) else text_of(prompts)
        if isinstance(inputs.get("prompt"), str):
            return inputs["prompt"]
    if isinstance(inputs, list):
        return _messages_text(inputs)
    return text_of(inputs)


def _first(value: Any) -> Any:
    """The first of a list (of a list: LangChain's generations, one list per prompt)."""
    while isinstance(value, list):
        value = value[0] if value else None
    return value


def _reply(outputs: Any) -> str:
    """The reply text; outputs of a shape not understood are shown whole, as JSON."""
    if isinstance(outputs, dict):
        if outputs.get("generations"):
            first = _first(outputs["generations"])
            if isinstance(first, dict):
                return text_of(first.get("text") or _message(first.get("message")).get("content"))
            return text_of(outputs["generations"])
        if outputs.get("choices"):
            first = _first(outputs["choices"])
            if isinstance(first, dict):
                return text_of(_message(first.get("message")).get("content"))
            return text_of(outputs["choices"])
        if "content" in outputs:
            return text_of(outputs["content"])
        if "output" in outputs:
            return text_of(outputs["output"])
    return text_of(outputs)


def _usage(
    counts: dict[str, Any], prompt_key: str, completion_key: str, where: str, notes: ShapeNotes
) -> dict[str, int] | None:
    if counts.get(prompt_key) is None or counts.get(completion_key) is None:
        return None
    prompt = notes.count(counts[prompt_key], f"{where}{prompt_key}")
    completion = notes.count(counts[completion_key], f"{where}{completion_key}")
    if prompt is None or completion is None:
        return None
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _error(text: Any) -> tuple[str, str] | None:
    if not text:
        return None
    lines = text_of(text).strip().splitlines()
    last = lines[-1] if lines else text_of(text)
    kind, sep, message = last.partition(":")
    return (kind.strip(), message.strip()) if sep and kind.strip().isidentifier() else ("Error", last)


def _item_name(kind: str, item: dict[str, Any], where: str) -> str:
    """How messages name a run or observation: by its id, else by where it is in the file."""
    found = identifier(item.get("id"))
    return f"{kind} {quoted(found)}" if found else where


# -- LangSmith ---------------------------------------------------------------------------------------
def is_langsmith(runs: list[Any]) -> bool:
    return bool(runs) and all(isinstance(r, dict) and "run_type" in r and "id" in r for r in runs)


def _langsmith_usage(run: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    outputs = _object_or_empty(run.get("outputs"))  # outputs of another shape are shown as the reply
    llm_output = _object_or_empty(outputs.get("llm_output"))
    key = "llm_output.token_usage" if llm_output.get("token_usage") else "usage"
    found = llm_output.get("token_usage") or outputs.get("usage")
    token_usage = notes.mapping(found, f"{where}: outputs.{key}", "token counts")
    return (
        _usage(run, "prompt_tokens", "completion_tokens", f"{where}: ", notes)
        or _usage(token_usage, "prompt_tokens", "completion_tokens", f"{where}: outputs.{key}.", notes)
        or _usage(token_usage, "input_tokens", "output_tokens", f"{where}: outputs.{key}.", notes)
    )


def _object_or_empty(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _langsmith_model(run: dict[str, Any], where: str, notes: ShapeNotes) -> str:
    extra = notes.mapping(run.get("extra"), f"{where}: extra")
    params = notes.mapping(extra.get("invocation_params"), f"{where}: extra.invocation_params")
    metadata = notes.mapping(extra.get("metadata"), f"{where}: extra.metadata")
    return text_of(params.get("model_name") or params.get("model") or metadata.get("ls_model_name") or "")


def _langsmith_span(run: dict[str, Any], where: str, notes: ShapeNotes) -> Span:
    run_type = run.get("run_type")
    role = {"llm": LLM, "tool": TOOL}.get(run_type, OTHER) if isinstance(run_type, str) else OTHER
    inputs = run.get("inputs")
    if role == TOOL and isinstance(inputs, dict) and len(inputs) == 1:
        inputs = next(iter(inputs.values()))
    start = _seconds(run.get("start_time"), f"{where}: start_time", notes)
    end = _seconds(run.get("end_time"), f"{where}: end_time", notes) if run.get("end_time") else start
    return Span(
        span_id=identifier(run.get("id")) or where,
        parent_id=identifier(run.get("parent_run_id")),
        name=name_text(run.get("name"), name_text(run_type, "run")),
        role=role,
        start=start,
        end=end,
        model=_langsmith_model(run, where, notes),
        prompt=_prompt(inputs) if role == LLM else "",
        output=_reply(run.get("outputs")),
        inputs=inputs,
        usage=_langsmith_usage(run, where, notes) if role == LLM else None,
        error=_error(run.get("error")),
    )


def langsmith_spans(runs: list[dict[str, Any]], notes: ShapeNotes) -> list[Span]:
    """Each run a span; nested child_runs are flattened (their parent_run_id links them again)."""
    spans = []
    pending: list[tuple[dict[str, Any], str, str | None]] = [
        (run, _item_name("run", run, f"runs[{index}]"), None) for index, run in enumerate(runs)
    ]
    pending.reverse()
    while pending:  # depth first, a run before its children, as they nest in the file
        run, where, parent = pending.pop()
        if parent is not None and not run.get("parent_run_id"):
            run = dict(run, parent_run_id=parent)
        spans.append(span := _langsmith_span(run, where, notes))
        children = notes.objects(run.get("child_runs"), f"{where}: child_runs")
        pending += reversed([(child, _item_name("run", child, at), span.span_id) for at, child in children])
    return spans


# -- Langfuse ----------------------------------------------------------------------------------------
def is_langfuse(traces: list[Any]) -> bool:
    return bool(traces) and all(isinstance(t, dict) and isinstance(t.get("observations"), list) for t in traces)


def _langfuse_usage(observation: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    key = "usageDetails" if observation.get("usageDetails") else "usage"
    usage = notes.mapping(observation.get(key) or None, f"{where}: {key}", "token counts")
    return (
        _usage(usage, "input", "output", f"{where}: {key}.", notes)
        or _usage(usage, "promptTokens", "completionTokens", f"{where}: {key}.", notes)
        or _usage(observation, "promptTokens", "completionTokens", f"{where}: ", notes)
    )


def _langfuse_span(o: dict[str, Any], where: str, trace_id: str, notes: ShapeNotes) -> Span:
    kind = str(o.get("type", "")).upper()
    role = LLM if kind in LANGFUSE_LLM_TYPES else TOOL if kind in LANGFUSE_TOOL_TYPES else OTHER
    failed = o.get("level") == "ERROR"
    start = _seconds(o.get("startTime"), f"{where}: startTime", notes)
    end = _seconds(o.get("endTime"), f"{where}: endTime", notes) if o.get("endTime") else start
    return Span(
        span_id=identifier(o.get("id")) or where,
        parent_id=identifier(o.get("parentObservationId")) or trace_id,
        name=name_text(o.get("name"), kind.lower() or "observation"),
        role=role,
        start=start,
        end=end,
        model=text_of(o.get("model") or ""),
        prompt=_prompt(o.get("input")) if role == LLM else "",
        output=_reply(o.get("output")),
        inputs=o.get("input"),
        usage=_langfuse_usage(o, where, notes) if role == LLM else None,
        error=_error(o.get("statusMessage") or "Error: failed") if failed else None,
    )


def langfuse_spans(traces: list[dict[str, Any]], notes: ShapeNotes) -> list[Span]:
    """The trace is the root span; observations hang under it by parentObservationId."""
    spans = []
    for index, trace in enumerate(traces):
        trace_where = _item_name("trace", trace, f"traces[{index}]")
        trace_id = identifier(trace.get("id")) or "trace"
        observations = [
            _langfuse_span(o, _item_name("observation", o, at), trace_id, notes)
            for at, o in notes.objects(trace["observations"], f"{trace_where}: observations")
        ]
        times = [t for o in observations for t in (o.start, o.end) if t is not None]
        start = _seconds(trace.get("timestamp"), f"{trace_where}: timestamp", notes)
        start = start if start is not None else min(times, default=None)
        spans.append(
            Span(
                trace_id,
                None,
                name_text(trace.get("name"), "trace"),
                OTHER,
                start,
                max(times + [start]) if start is not None else None,
                inputs=trace.get("input"),
                output=_reply(trace.get("output")),
            )
        )
        spans += observations
    return spans
