"""An imported run's span tree made ready to become events: one root, tools beside the model call that asked for them, replies and tool arguments as the model saw them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from .messages import json_or_text
from .spans import LLM, OTHER, TOOL, Span, TraceInfo, link


def each_span(span: Span) -> Iterator[Span]:
    """The span and all below it (no order promised: a stack, not recursion, for trees of any depth)."""
    pending = [span]
    while pending:
        current = pending.pop()
        yield current
        pending += current.children


def _tools_out_of_model_calls(spans: list[Span]) -> None:
    """A tool span under a model call's span (Google ADK runs the tool inside call_llm) is the
    model's request, run after its reply: it hangs beside the call, and the call ends by the time
    the tool starts (the reply had to be there to ask for it)."""
    by_id = {span.span_id: span for span in spans}
    for span in spans:
        parent = by_id.get(span.parent_id) if span.parent_id else None
        if span.role == TOOL and parent is not None and parent.role == LLM and parent is not span:
            span.parent_id = parent.parent_id
            if span.start is not None and parent.end is not None and parent.start is not None:
                parent.end = max(parent.start, min(parent.end, span.start))


def fill_nested_replies(root: Span) -> None:
    """A model call recorded twice, by a framework and by the client instrumentation inside it (Agno
    around OpenAI's): the inner span's reply to a call that asked only for tools is Python's str(None),
    "None". The inner call is the same call, so its reply is the outer one's text and tool calls."""
    pending: list[tuple[Span, Span | None]] = [(root, None)]
    while pending:
        span, outer = pending.pop()
        inner, reply = span.reply, outer.reply if outer is not None else None
        said_none = span.role == LLM and inner is not None and inner.text == "None" and not inner.tool_calls
        if said_none and inner is not None and reply is not None and reply.tool_calls and not reply.text:
            span.reply = replace(inner, text="", tool_calls=list(reply.tool_calls))
        pending += [(child, span if span.role == LLM else outer) for child in span.children]


def restore_sent_arguments(root: Span) -> None:
    """A model call's earlier tool calls as the framework sent them back. pydantic-ai records a call's
    arguments as the model wrote them (`{"city": "Paris"}`) but renders them anew in every later request
    (compact JSON from 2.58: `{"city":"Paris"}`), the text its tool span records: that text is what the
    model was sent. Arguments that say something else are kept as recorded."""
    rendered = {span.tool_call_id: span.sent_arguments for span in each_span(root) if span.sent_arguments is not None}
    if not rendered:
        return
    for span in each_span(root):
        messages = span.request.messages if span.role == LLM and span.request is not None else None
        for message in messages or ():
            for call in message.get("tool_calls") or ():
                function = call.get("function") if isinstance(call, dict) else None
                sent = rendered.get(call.get("id")) if isinstance(function, dict) else None
                if (
                    sent is not None
                    and isinstance(function, dict)
                    and sent != function.get("arguments")
                    and json_or_text(sent) == json_or_text(function.get("arguments"))
                ):
                    function["arguments"] = sent


def rooted(spans: list[Span], info: TraceInfo) -> tuple[Span | None, list[str]]:
    """The spans linked into the run's one tree (None when there are none), and what link() had to
    guess. The root's name is the trace's first frame: a trace's file is named before its events are made."""
    _tools_out_of_model_calls(spans)
    roots, warnings = link(spans)
    if not roots:
        return None, warnings
    if len(roots) == 1 and roots[0].role == OTHER:
        root = roots[0]
    else:  # a run made up to hold them, carrying the longest root's inputs and outcome
        main = max(roots, key=lambda s: (s.role == OTHER, (s.end or 0.0) - (s.start or 0.0)))
        root = Span(
            "imported",
            None,
            info.name or "imported run",
            OTHER,
            min(s.start or 0.0 for s in roots),
            max(s.end or 0.0 for s in roots),
            inputs=main.inputs,
            output=main.output if main.role == OTHER else None,
            error=main.error if main.role == OTHER else None,
            children=roots,
        )
    if info.input is None:
        info.input = root.inputs
    if info.output is None:
        info.output = root.output
    return root, warnings
