"""A trace's span tree as loopscope events in time order: model calls with their messages, rounds, tool calls matched to the reply that asked for them."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
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
    ToolStartEvent,
)

from .event_payloads import (
    chain_start_fields,
    claim_call,
    llm_end_fields,
    llm_start_fields,
    run_scores,
    tool_end_event,
    tool_input_given,
)
from .model_calls import Reply
from .run_tree import fill_nested_replies, restore_sent_arguments, rooted
from .spans import LLM, OTHER, TOOL, Span, TraceInfo, plain_name

# Where an event sorts among the run's: chain_start before all, chain_end after all, whatever their times say.
FIRST, BODY, LAST = 0, 1, 2
# What each entry of the walk becomes (a scored plain span's end: no event, but where its scores go).
RUN_START, CALL_START, CALL_END, ACTIONS, TOOL_START, TOOL_END, RUN_END, PLAIN_END = range(8)
# The entries after which a span given feedback has its scores placed: its call's end, or the last event
# made by the time a plain span (a chain inside the run) ended.
SCORED_AT = frozenset({CALL_END, TOOL_END, PLAIN_END})
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
            return [(LLMStartEvent, llm_start_fields(span, entry.inside_tool))]
        if what == CALL_END:
            return [(LLMEndEvent, llm_end_fields(span, entry.inside_tool))]
        if what == TOOL_START:
            call = claim_call(span, pending)
            return [
                (
                    ToolStartEvent,
                    {
                        "tool": span.name,
                        "tool_input": tool_input_given(span.inputs, call),
                        "tool_call_id": span.tool_call_id,
                    },
                )
            ]
        if what == TOOL_END:
            return [tool_end_event(span, handled=not self.run_failed)]
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
            return ChainStartEvent, chain_start_fields(root, info)
        if root.error:
            return ChainErrorEvent, {"error_type": root.error[0], "message": root.error[1], **run_scores(info)}
        output = info.output if info.output is not None else root.output
        outputs = output if isinstance(output, dict) else {"output": output if output is not None else ""}
        return ChainEndEvent, {"outputs": outputs, **run_scores(info)}

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


def events_from_root(root: Span, source_file: str, info: TraceInfo) -> tuple[list[EventBase], str | None]:
    """The events of a run rooted() made, and the line counting the spans that became only frames."""
    events, plain = event_stream_from_root(root, source_file, info)
    return list(events), plain


def event_stream_from_root(
    root: Span, source_file: str, info: TraceInfo, placed: list[tuple[int, list[dict[str, Any]]]] | None = None
) -> tuple[Iterator[EventBase], str | None]:
    """events_from_root's events made one at a time as they are iterated (the spans stay until then);
    `placed` gains (seq, raw scores) for each span given feedback of its own as its event is made."""
    fill_nested_replies(root)
    restore_sent_arguments(root)
    builder = _EventBuilder(root, info, source_file)
    if placed is not None:
        builder.placed = placed
    frames = (root.name,)
    builder.add(FIRST, root.start or 0.0, RUN_START, root, frames)
    for child in root.children:
        builder.walk(child, frames)
    builder.add(LAST, root.end or 0.0, RUN_END, root, frames)
    return builder.each(), builder.plain_note()
