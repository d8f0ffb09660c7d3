"""LangSmith runs (client.list_runs() as JSON, a run tree with child_runs, or the SDK's post/patch batches) read as spans and trace info."""

from __future__ import annotations

from typing import Any

from .framework_spans import is_tool_message, tool_message_fields
from .langsmith_feedback import child_feedback, feedback_entries
from .messages import json_or_text
from .model_calls import reply_of, request_of, tool_specs
from .run_exports import error_of, item_name, object_or_empty, seconds, usage
from .shape import ShapeNotes, identifier, name_text
from .span_attributes import LLM, OTHER, TOOL
from .spans import Span, TraceInfo, text_of


def is_langsmith(runs: list[Any]) -> bool:
    return bool(runs) and all(isinstance(r, dict) and "run_type" in r and "id" in r for r in runs)


def merged_batches(documents: list[Any]) -> list[Any] | None:
    """Runs from the SDK's ingestion batches ({"post": [...], "patch": [...]}): each run's patch
    (its end, outputs, error) laid over its post. None when the documents are no such batches."""
    batches = [d for document in documents for d in (document if isinstance(document, list) else [document])]
    if not batches or not all(isinstance(b, dict) and set(b) & {"post", "patch"} for b in batches):
        return None
    runs: dict[Any, dict[str, Any]] = {}
    ids_by_order: dict[Any, Any] = {}  # a patch may name its run by dotted_order alone (the JS SDK's do)
    for batch in batches:
        for key in ("post", "patch"):
            for run in batch.get(key) or []:
                if not isinstance(run, dict):
                    continue
                run_id = identifier(run.get("id")) or ids_by_order.get(identifier(run.get("dotted_order")))
                if run_id is not None:
                    runs.setdefault(run_id, {"id": run_id}).update({k: v for k, v in run.items() if v is not None})
                    ids_by_order.setdefault(identifier(run.get("dotted_order")), run_id)
    return list(runs.values())


def _usage(run: dict[str, Any], where: str, notes: ShapeNotes) -> dict[str, int] | None:
    outputs = object_or_empty(run.get("outputs"))  # outputs of another shape are shown as the reply
    llm_output = object_or_empty(outputs.get("llm_output"))
    key = "llm_output.token_usage" if llm_output.get("token_usage") else "usage"
    found = llm_output.get("token_usage") or outputs.get("usage")
    token_usage = notes.mapping(found, f"{where}: outputs.{key}", "token counts")
    metadata = object_or_empty(outputs.get("usage_metadata"))
    return (
        usage(run, "prompt_tokens", "completion_tokens", f"{where}: ", notes)
        or usage(token_usage, "prompt_tokens", "completion_tokens", f"{where}: outputs.{key}.", notes)
        or usage(token_usage, "input_tokens", "output_tokens", f"{where}: outputs.{key}.", notes)
        or usage(metadata, "input_tokens", "output_tokens", f"{where}: outputs.usage_metadata.", notes)
    )


def _model(run: dict[str, Any], where: str, notes: ShapeNotes) -> str:
    extra = notes.mapping(run.get("extra"), f"{where}: extra")
    params = notes.mapping(extra.get("invocation_params"), f"{where}: extra.invocation_params")
    metadata = notes.mapping(extra.get("metadata"), f"{where}: extra.metadata")
    outputs = object_or_empty(run.get("outputs"))
    inputs = object_or_empty(run.get("inputs"))
    found = params.get("model_name") or params.get("model") or metadata.get("ls_model_name")
    return text_of(found or outputs.get("model") or inputs.get("model") or "")


def _span(run: dict[str, Any], where: str, notes: ShapeNotes) -> Span:
    run_type = run.get("run_type")
    role = {"llm": LLM, "tool": TOOL}.get(run_type, OTHER) if isinstance(run_type, str) else OTHER
    start = seconds(run.get("start_time"), f"{where}: start_time", notes)
    end = seconds(run.get("end_time"), f"{where}: end_time", notes) if run.get("end_time") else start
    span = Span(
        span_id=identifier(run.get("id")) or where,
        parent_id=identifier(run.get("parent_run_id")),
        name=name_text(run.get("name"), name_text(run_type, "run")),
        role=role,
        start=start,
        end=end,
        trace_id=identifier(run.get("trace_id")),
        inputs=run.get("inputs"),
        output=run.get("outputs"),
        error=error_of(run.get("error")),
    )
    if role == LLM:
        span.model = _model(run, where, notes)
        span.request = request_of(run.get("inputs"))
        params = object_or_empty(object_or_empty(run.get("extra")).get("invocation_params"))
        span.request.tools = span.request.tools or tool_specs(params.get("tools"))
        span.reply = reply_of(run.get("outputs"))
        span.usage = _usage(run, where, notes)
    elif role == TOOL:
        _tool_fields(span, run)
    return span


def _tool_fields(span: Span, run: dict[str, Any]) -> None:
    inputs, outputs = run.get("inputs"), run.get("outputs")
    if isinstance(inputs, dict) and len(inputs) == 1:
        inputs = next(iter(inputs.values()))
    if isinstance(outputs, dict) and set(outputs) == {"output"}:
        outputs = outputs["output"]
    span.inputs, span.output = json_or_text(inputs), outputs
    if isinstance(outputs, dict) and is_tool_message(outputs):
        span.output, span.tool_call_id, failed = tool_message_fields(outputs)
        span.error = span.error or (("ToolError", span.output) if failed else None)


def _flattened(runs: list[dict[str, Any]], notes: ShapeNotes) -> list[tuple[dict[str, Any], str]]:
    """Each run with its name for messages; nested child_runs flattened (their parent id links them again)."""
    found = []
    Pending = tuple[dict[str, Any], str, str | None, str | None]  # a run, its name, its parent's and trace's ids
    pending: list[Pending] = [
        (run, item_name("run", run, f"runs[{index}]"), None, None) for index, run in enumerate(runs)
    ]
    pending.reverse()
    while pending:  # depth first, a run before its children, as they nest in the file
        run, where, parent, trace = pending.pop()
        if parent is not None and not run.get("parent_run_id"):
            run = dict(run, parent_run_id=parent)
        if trace is not None and not run.get("trace_id"):
            run = dict(run, trace_id=trace)
        found.append((run, where))
        children = notes.objects(run.get("child_runs"), f"{where}: child_runs")
        own, trace_of = identifier(run.get("id")), identifier(run.get("trace_id")) or identifier(run.get("id"))
        pending += reversed([(child, item_name("run", child, at), own, trace_of) for at, child in children])
    return found


def _trace_info(root: dict[str, Any], trace_id: str | None) -> TraceInfo:
    info = TraceInfo(trace_id=trace_id, name=name_text(root.get("name"), "") or None)
    extra = object_or_empty(root.get("extra"))
    for field_name, value in (
        ("session_id", root.get("session_id")),
        ("tags", root.get("tags")),
        ("metadata", extra.get("metadata")),
    ):
        if value not in (None, "", [], {}):
            info.fields[field_name] = value
    info.scores = feedback_entries(root)  # LangSmith's scores: feedback_stats, and feedback some exports carry
    return info


def langsmith_traces(runs: list[dict[str, Any]], notes: ShapeNotes) -> list[tuple[TraceInfo, list[Span]]]:
    """The runs grouped by trace_id (a nested run without one joins its parent's trace); a file
    whose runs name no trace is one trace, as LangSmith exported it."""
    flat = _flattened(runs, notes)
    spans = [_span(run, where, notes) for run, where in flat]
    run_of = {id(span): run for span, (run, _where) in zip(spans, flat)}
    groups: dict[str | None, list[Span]] = {}
    for span in spans:
        groups.setdefault(span.trace_id, []).append(span)
    if None in groups and len(groups) > 1:  # runs that name no trace join the first trace's
        loose = groups.pop(None)
        groups[next(iter(groups))] += loose
    found = []
    for trace_id, members in groups.items():
        root = next((s for s in members if s.parent_id is None), members[0])
        children = [run_of[id(span)] for span in members if span is not root]
        given = child_feedback(run_of[id(root)], children)
        for span in members if given else ():  # feedback on a model call or a tool run: its event's
            if span is not root:
                span.scores = given.get(span.span_id)
        found.append((_trace_info(run_of[id(root)], trace_id), members))
    return found
