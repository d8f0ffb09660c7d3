"""Spans from other tools, in one neutral shape, turned into loopscope events in time order."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from executor.events import (
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    LLMEndEvent,
    LLMStartEvent,
    SourceRef,
    ToolEndEvent,
    ToolErrorEvent,
    ToolInfo,
    ToolStartEvent,
)

from .shape import quoted

LLM, TOOL, OTHER = "llm", "tool", "other"


@dataclass
class Span:
    """One span / run / observation, whatever tool recorded it. Times are seconds (any epoch)."""

    span_id: str
    parent_id: str | None
    name: str
    role: str  # LLM, TOOL or OTHER (chains, agents, retrievers ...)
    start: float | None  # None: not readable from the file (link() places the span in time)
    end: float | None
    model: str = ""
    prompt: str = ""  # the exact prompt, or the message list written out as text
    output: str = ""
    inputs: Any = None  # tool input, or a chain's inputs
    usage: dict[str, int] | None = None
    error: tuple[str, str] | None = None  # (error type, message)
    children: list[Span] = field(default_factory=list)


@dataclass
class Conversion:
    """What an importer made of a file: the events, what it recognised, and what it had to guess."""

    format: str
    recognised: str  # one line: "OTLP JSON (OpenInference): 14 spans, 4 LLM, 6 tool"
    events: list[EventBase]
    warnings: list[str] = field(default_factory=list)


def text_of(value: Any) -> str:
    """A value shown as text: strings as they are, anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def messages_text(messages: list[dict[str, Any]]) -> str:
    """A chat message list written out one message per block, `role: content` (what the model saw)."""
    return "\n\n".join(f"{m.get('role') or 'message'}: {text_of(m.get('content'))}" for m in messages)


# Frames deeper than this say nothing more a reader can follow, and every event carries its frames:
# a chain of 5,000 nested spans would write 5,000 names on each of its 10,000 lines.
MAX_SPAN_DEPTH = 100


def plain_name(name: str) -> str:
    """A span's name for a one-line warning: as it is when printable and short, else quoted literally."""
    return name if name.isprintable() and len(name) <= 40 else quoted(name)


def link(spans: list[Span]) -> tuple[list[Span], list[str]]:
    """Children under their parents, in time order. Spans whose parent is missing become roots, a
    parent cycle is broken at its earliest span, spans nested deeper than MAX_SPAN_DEPTH are shown at
    that depth, and a span without a readable time is placed at its parent's start: each said in a warning."""
    by_id = {span.span_id: index for index, span in enumerate(spans)}
    parents = [by_id.get(span.parent_id) if span.parent_id else None for span in spans]
    orphans = [span.name for span, parent in zip(spans, parents) if span.parent_id and parent is None]
    cycles = _break_cycles(parents, spans)
    depth = _depths(parents)
    order = sorted(range(len(spans)), key=depth.__getitem__)  # parents before their children
    too_deep = _flatten_below(MAX_SPAN_DEPTH, order, parents, depth)
    placed, backwards = _place_in_time(order, parents, spans)
    roots: list[Span] = []
    for index in sorted(range(len(spans)), key=lambda i: (spans[i].start, spans[i].end)):
        parent = parents[index]
        (spans[parent].children if parent is not None else roots).append(spans[index])
    warnings = []
    if orphans:
        names = ", ".join(plain_name(name) for name in sorted(set(orphans))[:5])
        warnings.append(
            f"{len(orphans)} span(s) name a parent that is not in the file ({names}): shown at the top level"
        )
    for cycle, broken_at in cycles:
        chain = " → ".join(quoted(spans[i].span_id, 20) for i in [*cycle[:4], cycle[0]])
        warnings.append(
            f"{len(cycle)} span(s) name each other as parents in a cycle "
            f"({chain}{' …' if len(cycle) > 4 else ''}): broken at "
            f"{quoted(spans[broken_at].span_id, 20)}, which is shown at the top level"
        )
    if too_deep:
        warnings.append(
            f"{too_deep} span(s) nested more than {MAX_SPAN_DEPTH} levels deep: shown at level {MAX_SPAN_DEPTH}"
        )
    if placed:
        warnings.append(f"{placed} span(s) without a readable start or end time: placed at their parent's start")
    if backwards:
        warnings.append(f"{backwards} span(s) end before they start: shown ending as they start")
    return roots, warnings


def _break_cycles(parents: list[int | None], spans: list[Span]) -> list[tuple[list[int], int]]:
    """Each cycle of parent links (a names b, b names a), cut at its earliest span, which becomes a root."""
    state = [0] * len(parents)  # 0 not seen, 1 on the path being walked, 2 done
    cycles = []
    for first in range(len(parents)):
        path: list[int] = []
        node: int | None = first
        while node is not None and state[node] == 0:
            state[node] = 1
            path.append(node)
            node = parents[node]
        if node is not None and state[node] == 1:  # the walk came back onto its own path
            cycle = path[path.index(node) :]
            earliest = min(cycle, key=lambda i: (spans[i].start is None, spans[i].start or 0.0, i))
            parents[earliest] = None
            cycles.append((cycle, earliest))
        for index in path:
            state[index] = 2
    return cycles


def _depths(parents: list[int | None]) -> list[int]:
    """How many ancestors each span has (the parent links hold no cycle)."""
    depth = [-1] * len(parents)
    for first in range(len(parents)):
        path: list[int] = []
        node: int | None = first
        while node is not None and depth[node] < 0:
            path.append(node)
            node = parents[node]
        known = depth[node] if node is not None else -1
        for index in reversed(path):
            known += 1
            depth[index] = known
    return depth


def _flatten_below(limit: int, order: list[int], parents: list[int | None], depth: list[int]) -> int:
    """Spans deeper than `limit` hang from their ancestor at `limit - 1` instead; how many moved."""
    moved = 0
    for index in order:
        parent = parents[index]
        if parent is not None and depth[index] > limit:
            parents[index] = parents[parent]  # the parent already hangs at limit - 1, or is that ancestor
            moved += 1
    return moved


def _place_in_time(order: list[int], parents: list[int | None], spans: list[Span]) -> tuple[int, int]:
    """A span without a readable start starts with its parent (a root: with the earliest time in the
    file); one without a readable end, or ending before it starts, ends at its start. How many spans
    had a time missing, and how many ended before they started."""
    earliest = min((t for span in spans for t in (span.start, span.end) if t is not None), default=0.0)
    placed = backwards = 0
    for index in order:
        span, parent = spans[index], parents[index]
        placed += span.start is None or span.end is None
        start = span.start
        if start is None:
            start = span.start = spans[parent].start if parent is not None else earliest
        if span.end is None:
            span.end = start
        elif start is not None and span.end < start:
            span.end = start
            backwards += 1
    return placed, backwards


# Where an event sorts among the run's: chain_start before all, chain_end after all, whatever their times say.
FIRST, BODY, LAST = 0, 1, 2


class _EventBuilder:
    """Walks the span tree: each span adds its events at its start and end times, frames = its ancestors.
    Events sort by time, and at equal times in the order of the walk (a span's start, its children, its
    end), so a span that takes no time still starts before it ends, and a child ends before its parent."""

    def __init__(self, origin: float, source_file: str, run_failed: bool = False) -> None:
        self.origin, self.source_file = origin, source_file
        self.run_failed = run_failed  # a tool error the run survived was handled (became an observation)
        self.timed: list[tuple[int, float, int, bool, dict[str, Any]]] = []

    def add(
        self,
        time: float,
        cls: type[EventBase],
        frames: tuple[str, ...],
        starts_round: bool = False,
        band: int = BODY,
        **payload: Any,
    ) -> None:
        self.timed.append((band, time, len(self.timed), starts_round, {"cls": cls, "frames": frames, **payload}))

    def walk(self, span: Span, frames: tuple[str, ...], in_tool: bool = False) -> None:
        frames = frames + (span.name,)
        start, end = span.start or 0.0, span.end or 0.0  # link() gave every span its times
        if span.role == LLM:  # a model call not inside a tool starts a round (plan); a calculator's does not
            self.add(
                start, LLMStartEvent, frames, not in_tool, model=span.model or "unknown", prompt=span.prompt, stop=[]
            )
        elif span.role == TOOL:
            self.add(start, ToolStartEvent, frames, tool=span.name, tool_input=text_of(span.inputs))
        for child in span.children:
            self.walk(child, frames, in_tool or span.role == TOOL)
        if span.role == LLM:
            self.add(
                end, LLMEndEvent, frames, text=span.output, usage=span.usage, duration=round(max(end - start, 0.0), 6)
            )
        elif span.role == TOOL and span.error:
            self.add(
                end,
                ToolErrorEvent,
                frames,
                tool=span.name,
                error_type=span.error[0],
                message=span.error[1],
                handled=not self.run_failed,
                observation=None,
            )
        elif span.role == TOOL:
            self.add(end, ToolEndEvent, frames, tool=span.name, observation=span.output)

    def events(self) -> list[EventBase]:
        built, iteration, latest = [], 0, self.origin
        for seq, (band, time, _order, starts_round, fields) in enumerate(sorted(self.timed, key=lambda e: e[:3])):
            cls, frames = fields.pop("cls"), fields.pop("frames")
            iteration += starts_round
            time = max(time, self.origin)  # nothing happens before the run starts
            if band == LAST:
                time = max(time, latest)  # and the run ends after everything in it
            latest = max(latest, time)
            source = SourceRef(file=self.source_file, line=0, function=frames[-1])
            built.append(
                cls(
                    seq=seq,
                    run_id="imported",
                    t=round(time - self.origin, 6),
                    iteration=0 if band == FIRST else iteration,
                    frames=frames,
                    source=source,
                    **fields,
                )
            )
        return built


def _as_inputs(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    return {} if value is None else {"input": text_of(value)}


def _tool_names(span: Span, found: dict[str, None]) -> dict[str, None]:
    if span.role == TOOL:
        found.setdefault(span.name)
    for child in span.children:
        _tool_names(child, found)
    return found


def events_from_spans(
    spans: list[Span], source_file: str, progress: Callable[[str, int, int], None] | None = None
) -> tuple[list[EventBase], list[str]]:
    """The run as loopscope events: chain_start, model and tool calls in time order, chain_end (or
    chain_error). One root span is the run; several (or orphans) sit under a run made up for them."""
    roots, warnings = link(spans)
    if not roots:
        return [], warnings
    if len(roots) == 1 and roots[0].role == OTHER:
        root = roots[0]
    else:  # a run made up to hold them, carrying the longest root's inputs and outcome
        main = max(roots, key=lambda s: (s.role == OTHER, (s.end or 0.0) - (s.start or 0.0)))
        root = Span(
            "imported",
            None,
            "imported run",
            OTHER,
            min(s.start or 0.0 for s in roots),
            max(s.end or 0.0 for s in roots),
            inputs=main.inputs,
            output=main.output,
            error=main.error,
            children=roots,
        )
    builder = _EventBuilder(root.start or 0.0, source_file, run_failed=root.error is not None)
    frames = (root.name,)
    tools = [ToolInfo(name=name, description="") for name in _tool_names(root, {})]
    builder.add(
        root.start or 0.0,
        ChainStartEvent,
        frames,
        band=FIRST,
        inputs=_as_inputs(root.inputs),
        tools=tools,
        settings={"imported": True},
    )
    for count, child in enumerate(root.children):
        if progress is not None and count % 2_000 == 0:
            progress("making events", count, len(root.children))
        builder.walk(child, frames)
    if root.error:
        builder.add(
            root.end or 0.0, ChainErrorEvent, frames, band=LAST, error_type=root.error[0], message=root.error[1]
        )
    else:
        builder.add(root.end or 0.0, ChainEndEvent, frames, band=LAST, outputs={"output": root.output})
    return builder.events(), warnings
