"""A trace's span tree as loopscope events in time order: model calls with their messages, rounds, tool calls matched to the reply that asked for them."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from executor.events import (
    AgentActionEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    LLMEndEvent,
    LLMStartEvent,
    SourceRef,
    ToolCallRecord,
    ToolEndEvent,
    ToolErrorEvent,
    ToolInfo,
    ToolStartEvent,
)
from executor.models.messages import render_messages

from .messages import compact, json_or_text
from .model_calls import Reply
from .spans import LLM, OTHER, TOOL, Span, TraceInfo, link, plain_name, text_of

# Where an event sorts among the run's: chain_start before all, chain_end after all, whatever their times say.
FIRST, BODY, LAST = 0, 1, 2
# What each entry of the walk becomes (a scored plain span's end: no event, but where its scores go).
RUN_START, CALL_START, CALL_END, ACTIONS, TOOL_START, TOOL_END, RUN_END, PLAIN_END = range(8)
# The entries after which a span given feedback has its scores placed: its call's end, or the last event
# made by the time a plain span (a chain inside the run) ended.
SCORED_AT = frozenset({CALL_END, TOOL_END, PLAIN_END})
# Finish reasons that say only that the model stopped as it should (llm_end keeps the others).
PLAIN_STOPS = frozenset({"stop", "end_turn", "completed"})
NAMES_SHOWN = 6  # plain frames named in the one-line note; the rest counted


_WALK_ORDER = operator.attrgetter("band", "time", "order")


@dataclass(slots=True)
class _Entry:
    band: int
    time: float
    order: int
    what: int
    span: Span
    frames: tuple[str, ...]
    round_start: bool = False
    inside_tool: str | None = None  # the call id of the tool a nested model call runs in


class _EventBuilder:
    """Walks the span tree: each span adds its events at its start and end times, frames = its ancestors.
    Events sort by time, and at equal times in the order of the walk (a span's start, its children, its
    end), so a span that takes no time still starts before it ends, and a child ends before its parent.
    A model call not inside a tool or another model call starts a round (loopscope's `plan`)."""

    def __init__(self, root: Span, info: TraceInfo, source_file: str) -> None:
        self.root, self.info, self.source_file = root, info, source_file
        self.origin = root.start or 0.0
        self.run_failed = root.error is not None  # a tool error the run survived was handled
        self.entries: list[_Entry] = []
        self.plain: Counter[str] = Counter()  # spans that are neither model nor tool calls, by name
        # (seq of the event, the span's raw scores) for each span given feedback, filled as events are made
        self.placed: list[tuple[int, list[dict[str, Any]]]] = []

    def add(self, band: int, time: float, what: int, span: Span, frames: tuple[str, ...], **flags: Any) -> None:
        self.entries.append(_Entry(band, time, len(self.entries), what, span, frames, **flags))

    def walk(self, span: Span, frames: tuple[str, ...], inside: str = OTHER, tool_id: str | None = None) -> None:
        frames = frames + (span.name,)
        start, end = span.start or 0.0, span.end or 0.0  # link() gave every span its times
        if span.role == LLM:
            self.add(BODY, start, CALL_START, span, frames, round_start=inside == OTHER, inside_tool=tool_id)
        elif span.role == TOOL:
            self.add(BODY, start, TOOL_START, span, frames)
        else:
            self.plain[span.name] += 1
        for child in span.children:
            role = span.role if span.role != OTHER else inside
            self.walk(child, frames, role, span.tool_call_id if span.role == TOOL else tool_id)
        if span.role == LLM:
            self.add(BODY, end, CALL_END, span, frames, round_start=inside == OTHER, inside_tool=tool_id)
            if inside == OTHER:  # the reply's requests, where the call was made (see _payloads)
                self.add(BODY, end, ACTIONS, span, frames, round_start=True)
        elif span.role == TOOL:
            self.add(BODY, end, TOOL_END, span, frames)
        elif span.scores:
            self.add(BODY, end, PLAIN_END, span, frames)

    def events(self) -> list[EventBase]:
        return list(self.each())

    def each(self) -> Iterator[EventBase]:
        """The events one at a time, in order: a trace of a million spans is written without its
        two million events ever held at once (see Imported.streamed)."""
        entries = sorted(self.entries, key=_WALK_ORDER)
        self.entries = []  # the sorted copy is the one walked
        made = 0
        origin, source_file = self.origin, self.source_file
        iteration, latest = 0, origin
        pending: list[dict[str, Any]] = []  # calls the last replies asked for that no tool span has claimed
        sources: dict[str, SourceRef] = {}
        for entry in entries:  # (written out rather than with max(): this runs for every event of an import)
            if entry.what == CALL_START and entry.round_start:
                iteration += 1
            time = entry.time
            if origin > time:  # nothing happens before the run starts
                time = origin
            if entry.band == LAST and latest > time:  # and the run ends after everything in it
                time = latest
            if time > latest:
                latest = time
            at, number, frames = round(time - origin, 6), 0 if entry.band == FIRST else iteration, entry.frames
            source = sources.get(frames[-1])
            if source is None:
                source = sources[frames[-1]] = SourceRef(file=source_file, line=0, function=frames[-1])
            for payload_class, payload in self._payloads(entry, pending):
                yield payload_class(
                    seq=made, run_id="imported", t=at, iteration=number, frames=frames, source=source, **payload
                )
                made += 1
            if entry.span.scores and entry.what in SCORED_AT:  # the call's end was made just now (see SCORED_AT)
                self.placed.append((made - 1, entry.span.scores))

    def _payloads(self, entry: _Entry, pending: list[dict[str, Any]]) -> list[tuple[type[EventBase], dict[str, Any]]]:
        span, what = entry.span, entry.what
        if what == CALL_START:
            return [(LLMStartEvent, _call_start(span, entry.inside_tool))]
        if what == CALL_END:
            return [(LLMEndEvent, _call_end(span, entry.inside_tool))]
        if what == TOOL_START:
            call = _claim(span, pending)
            return [
                (
                    ToolStartEvent,
                    {"tool": span.name, "tool_input": _given(span.inputs, call), "tool_call_id": span.tool_call_id},
                )
            ]
        if what == TOOL_END:
            return [_tool_end(span, handled=not self.run_failed)]
        if what == PLAIN_END:
            return []
        if what == ACTIONS:
            reply = span.reply or Reply()
            pending += reply.tool_calls
            # Each call's id stays on llm_end's tool_calls and on its tool events, not here: an
            # agent_action with an id makes step-over skip a loopscope run's acting phase (a frame
            # below), and an imported run's tools often run in a sibling span (LangGraph's tools node).
            return [
                (AgentActionEvent, {"tool": call["name"], "tool_input": call["arguments"], "log": reply.text})
                for call in reply.tool_calls
            ]
        return [self._run_payload(entry)]

    def _run_payload(self, entry: _Entry) -> tuple[type[EventBase], dict[str, Any]]:
        root, info = self.root, self.info
        if entry.what == RUN_START:
            return ChainStartEvent, _chain_start(root, info)
        if root.error:
            return ChainErrorEvent, {"error_type": root.error[0], "message": root.error[1], **_scores(info)}
        output = info.output if info.output is not None else root.output
        outputs = output if isinstance(output, dict) else {"output": output if output is not None else ""}
        return ChainEndEvent, {"outputs": outputs, **_scores(info)}

    def plain_note(self) -> str | None:
        """One line naming the spans that became only frames (the run's own root is its chain_start)."""
        plain = self.plain
        if not plain:
            return None
        named = ", ".join(
            plain_name(name) + (f" ×{count}" if count > 1 else "") for name, count in plain.most_common(NAMES_SHOWN)
        )
        more = f" and {len(plain) - NAMES_SHOWN} more names" if len(plain) > NAMES_SHOWN else ""
        total = sum(plain.values())
        return (
            f"{total} span(s) kept as plain frames, neither a model nor a tool call "
            f"(their own inputs and outputs are not in the events): {named}{more}"
        )


def _claim(span: Span, pending: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The model's call a tool span ran: the one of its id, or (a span without the model's call id)
    the earliest unclaimed call of its name, whose id it then gets."""
    for index, call in enumerate(pending):
        if call["id"] == span.tool_call_id or (span.tool_call_id is None and call["name"] == span.name):
            span.tool_call_id = call["id"] or None
            del pending[index]
            return call
    return None


def _given(inputs: Any, call: dict[str, Any] | None) -> str:
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


def _call_start(span: Span, inside_tool: str | None) -> dict[str, Any]:
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


def _call_end(span: Span, inside_tool: str | None) -> dict[str, Any]:
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


def _tool_end(span: Span, handled: bool) -> tuple[type[EventBase], dict[str, Any]]:
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


def _chain_start(root: Span, info: TraceInfo) -> dict[str, Any]:
    tools: dict[str, str] = {}
    for span in _all(root):
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


def _scores(info: TraceInfo) -> dict[str, Any]:
    return {"origin": {"scores": info.scores}} if info.scores else {}


def _all(span: Span):
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


def _nested_replies(root: Span) -> None:
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


def _history_as_sent(root: Span) -> None:
    """A model call's earlier tool calls as the framework sent them back. pydantic-ai records a call's
    arguments as the model wrote them (`{"city": "Paris"}`) but renders them anew in every later request
    (compact JSON from 2.58: `{"city":"Paris"}`), the text its tool span records: that text is what the
    model was sent. Arguments that say something else are kept as recorded."""
    rendered = {span.tool_call_id: span.sent_arguments for span in _all(root) if span.sent_arguments is not None}
    if not rendered:
        return
    for span in _all(root):
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


def events_from_spans(
    spans: list[Span], source_file: str, info: TraceInfo | None = None
) -> tuple[list[EventBase], list[str], str | None]:
    """The run as loopscope events: chain_start, model and tool calls in time order, chain_end (or
    chain_error). One root span is the run; several (or orphans) sit under a run made up for them.
    Also what link() had to guess, and a line counting the spans that became only frames."""
    info = info or TraceInfo()
    root, warnings = rooted(spans, info)
    if root is None:
        return [], warnings, None
    events, plain = events_from_root(root, source_file, info)
    return events, warnings, plain


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


def events_from_root(root: Span, source_file: str, info: TraceInfo) -> tuple[list[EventBase], str | None]:
    """The events of a run rooted() made, and the line counting the spans that became only frames."""
    events, plain = event_stream_from_root(root, source_file, info)
    return list(events), plain


def event_stream_from_root(
    root: Span, source_file: str, info: TraceInfo, placed: list[tuple[int, list[dict[str, Any]]]] | None = None
) -> tuple[Iterator[EventBase], str | None]:
    """events_from_root's events made one at a time as they are iterated (the spans stay until then);
    `placed` gains (seq, raw scores) for each span given feedback of its own as its event is made."""
    _nested_replies(root)
    _history_as_sent(root)
    builder = _EventBuilder(root, info, source_file)
    if placed is not None:
        builder.placed = placed
    frames = (root.name,)
    builder.add(FIRST, root.start or 0.0, RUN_START, root, frames)
    for child in root.children:
        builder.walk(child, frames)
    builder.add(LAST, root.end or 0.0, RUN_END, root, frames)
    return builder.each(), builder.plain_note()
