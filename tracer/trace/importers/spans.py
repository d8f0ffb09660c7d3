"""Spans from other tools in one neutral shape, linked into a tree in time order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from executor.events import EventBase

from ..annotations import Score
from .messages import text_of
from .model_calls import Reply, Request
from .shape import quoted
from .span_attributes import LLM, OTHER, TOOL

__all__ = ["LLM", "OTHER", "TOOL", "Conversion", "Span", "TraceInfo", "link", "text_of"]


@dataclass(slots=True, eq=False)
class Span:
    """One span / run / observation, whatever tool recorded it. Times are seconds (any epoch)."""

    span_id: str
    parent_id: str | None
    name: str
    role: str  # LLM, TOOL or OTHER (chains, agents, retrievers ...)
    start: float | None  # None: not readable from the file (link() places the span in time)
    end: float | None
    trace_id: str | None = None  # which trace of the file it belongs to
    model: str = ""
    request: Request | None = None  # a model call's messages (or prompt) and tools offered
    reply: Reply | None = None  # a model call's reply
    output: Any = None  # a tool's result, a chain's outputs
    inputs: Any = None  # a tool's input, a chain's inputs
    usage: dict[str, int] | None = None
    error: tuple[str, str] | None = None  # (error type, message)
    tool_call_id: str | None = None  # the model's id for the call a tool span ran
    # A tool span's arguments as its framework wrote them, when that is also how it sends the call back
    # to the model in later requests (pydantic-ai: compact JSON from 2.58, whatever the model wrote).
    sent_arguments: str | None = None
    trace_fields: dict[str, Any] | None = None  # session, user, tags the span names for its trace
    # Feedback given on this span itself (a LangSmith child run's), raw as the importer's scorer reads
    # it: its scores are tied to the event the span becomes (run_events.py places them).
    scores: list[dict[str, Any]] | None = None
    children: list[Span] = field(default_factory=list)


@dataclass
class TraceInfo:
    """What a file says about a whole trace besides its spans: its id and name, input and output,
    session, user, tags, metadata and scores."""

    trace_id: str | None = None
    name: str | None = None
    input: Any = None
    output: Any = None
    fields: dict[str, Any] = field(default_factory=dict)  # session_id, user_id, tags, metadata, release ...
    scores: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Conversion:
    """What an importer made of one trace of a file: the events, what it recognised, what it had to guess."""

    format: str
    recognised: str  # one line: "OTLP JSON: 14 spans, 4 LLM, 6 tool"
    events: list[EventBase]
    warnings: list[str] = field(default_factory=list)
    trace_id: str | None = None
    name: str | None = None
    plain_frames: str | None = None  # one line: the spans that became only frames, counted by name
    started: float | None = None  # the root span's start (seconds; a date when the source gave one)
    # The source's scores, appended after its events: the run's, then (once its events have all been
    # made: see Imported.streamed) those given on one of its spans, each with its event's seq.
    scores: list[Score] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)  # scenario / agent a loopscope export named

    @property
    def notes(self) -> list[str]:
        """Everything a reader should be told: what could not be read, and what became only frames."""
        return self.warnings + ([self.plain_frames] if self.plain_frames else [])


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
