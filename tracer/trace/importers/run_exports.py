"""LangSmith run exports and Langfuse trace exports (their APIs' JSON) read as spans."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .spans import LLM, OTHER, TOOL, Span, messages_text, text_of

LANGFUSE_LLM_TYPES = {"GENERATION"}
LANGFUSE_TOOL_TYPES = {"TOOL"}


def _seconds(value: Any) -> float:
    if value in (None, ""):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()


def _message(value: Any) -> dict[str, Any]:
    """A chat message in any of the shapes these exports use: LangChain's serialised form, OpenAI's."""
    if not isinstance(value, dict):
        return {"role": "message", "content": value}
    if "kwargs" in value:  # LangChain's {"lc": 1, "id": [..., "HumanMessage"], "kwargs": {...}}
        kwargs = value["kwargs"]
        role = kwargs.get("type") or (value.get("id") or ["message"])[-1]
        return {"role": role, "content": kwargs.get("content")}
    return {"role": value.get("role") or value.get("type") or "message", "content": value.get("content")}


def _prompt(inputs: Any) -> str:
    if isinstance(inputs, dict):
        if inputs.get("messages"):
            messages = inputs["messages"]
            if messages and isinstance(messages[0], list):  # LangChain batches: one list per prompt
                messages = messages[0]
            return messages_text([_message(m) for m in messages])
        if inputs.get("prompts"):
            return "\n\n".join(text_of(p) for p in inputs["prompts"])
        if isinstance(inputs.get("prompt"), str):
            return inputs["prompt"]
    if isinstance(inputs, list):
        return messages_text([_message(m) for m in inputs])
    return text_of(inputs)


def _reply(outputs: Any) -> str:
    if isinstance(outputs, dict):
        if outputs.get("generations"):
            generations = outputs["generations"]
            first = generations[0][0] if isinstance(generations[0], list) else generations[0]
            return text_of(first.get("text") or _message(first.get("message")).get("content"))
        if outputs.get("choices"):
            return text_of(_message(outputs["choices"][0].get("message")).get("content"))
        if "content" in outputs:
            return text_of(outputs["content"])
        if "output" in outputs:
            return text_of(outputs["output"])
    return text_of(outputs)


def _usage(prompt: Any, completion: Any) -> dict[str, int] | None:
    if prompt is None or completion is None:
        return None
    return {"prompt_tokens": int(prompt), "completion_tokens": int(completion),
            "total_tokens": int(prompt) + int(completion)}


def _error(text: Any) -> tuple[str, str] | None:
    if not text:
        return None
    last = str(text).strip().splitlines()[-1]
    kind, sep, message = last.partition(":")
    return (kind.strip(), message.strip()) if sep and kind.strip().isidentifier() else ("Error", last)


# -- LangSmith ---------------------------------------------------------------------------------------
def is_langsmith(runs: list[Any]) -> bool:
    return bool(runs) and all(isinstance(r, dict) and "run_type" in r and "id" in r for r in runs)


def _langsmith_usage(run: dict[str, Any]) -> dict[str, int] | None:
    outputs = run.get("outputs") or {}
    token_usage = (outputs.get("llm_output") or {}).get("token_usage") or outputs.get("usage") or {}
    return (_usage(run.get("prompt_tokens"), run.get("completion_tokens"))
            or _usage(token_usage.get("prompt_tokens"), token_usage.get("completion_tokens"))
            or _usage(token_usage.get("input_tokens"), token_usage.get("output_tokens")))


def _langsmith_model(run: dict[str, Any]) -> str:
    extra = run.get("extra") or {}
    params, metadata = extra.get("invocation_params") or {}, extra.get("metadata") or {}
    return str(params.get("model_name") or params.get("model") or metadata.get("ls_model_name") or "")


def langsmith_spans(runs: list[dict[str, Any]]) -> list[Span]:
    """Each run a span; nested child_runs are flattened (their parent_run_id links them again)."""
    spans = []
    for run in runs:
        role = {"llm": LLM, "tool": TOOL}.get(run.get("run_type"), OTHER)
        inputs = run.get("inputs")
        if role == TOOL and isinstance(inputs, dict) and len(inputs) == 1:
            inputs = next(iter(inputs.values()))
        spans.append(Span(
            span_id=str(run["id"]), parent_id=str(run["parent_run_id"]) if run.get("parent_run_id") else None,
            name=str(run.get("name") or run["run_type"]), role=role, start=_seconds(run.get("start_time")),
            end=_seconds(run.get("end_time") or run.get("start_time")), model=_langsmith_model(run),
            prompt=_prompt(inputs) if role == LLM else "", output=_reply(run.get("outputs")), inputs=inputs,
            usage=_langsmith_usage(run) if role == LLM else None, error=_error(run.get("error"))))
        children = [dict(child, parent_run_id=child.get("parent_run_id") or run["id"])
                    for child in run.get("child_runs") or []]
        spans += langsmith_spans(children)
    return spans


# -- Langfuse ----------------------------------------------------------------------------------------
def is_langfuse(traces: list[Any]) -> bool:
    return bool(traces) and all(isinstance(t, dict) and isinstance(t.get("observations"), list) for t in traces)


def _langfuse_usage(observation: dict[str, Any]) -> dict[str, int] | None:
    usage = observation.get("usageDetails") or observation.get("usage") or {}
    return (_usage(usage.get("input"), usage.get("output"))
            or _usage(usage.get("promptTokens"), usage.get("completionTokens"))
            or _usage(observation.get("promptTokens"), observation.get("completionTokens")))


def langfuse_spans(traces: list[dict[str, Any]]) -> list[Span]:
    """The trace is the root span; observations hang under it by parentObservationId."""
    spans = []
    for trace in traces:
        observations = [o for o in trace["observations"] if isinstance(o, dict)]
        times = [_seconds(o.get(k)) for o in observations for k in ("startTime", "endTime") if o.get(k)]
        start = _seconds(trace.get("timestamp")) or min(times, default=0.0)
        spans.append(Span(str(trace.get("id", "trace")), None, str(trace.get("name") or "trace"), OTHER, start,
                          max(times + [start]), inputs=trace.get("input"), output=_reply(trace.get("output"))))
        for o in observations:
            kind = str(o.get("type", "")).upper()
            role = LLM if kind in LANGFUSE_LLM_TYPES else TOOL if kind in LANGFUSE_TOOL_TYPES else OTHER
            failed = o.get("level") == "ERROR"
            spans.append(Span(
                span_id=str(o.get("id")), parent_id=str(o.get("parentObservationId") or trace.get("id", "trace")),
                name=str(o.get("name") or kind.lower()), role=role, start=_seconds(o.get("startTime")),
                end=_seconds(o.get("endTime") or o.get("startTime")), model=str(o.get("model") or ""),
                prompt=_prompt(o.get("input")) if role == LLM else "", output=_reply(o.get("output")),
                inputs=o.get("input"), usage=_langfuse_usage(o) if role == LLM else None,
                error=_error(o.get("statusMessage") or "Error: failed") if failed else None))
    return spans
