"""Spans from other tools, in one neutral shape, turned into loopscope events in time order."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from executor.events import (
    ChainEndEvent, ChainErrorEvent, ChainStartEvent, EventBase, LLMEndEvent, LLMStartEvent, SourceRef, ToolEndEvent,
    ToolErrorEvent, ToolInfo, ToolStartEvent,
)

LLM, TOOL, OTHER = "llm", "tool", "other"


@dataclass
class Span:
    """One span / run / observation, whatever tool recorded it. Times are seconds (any epoch)."""

    span_id: str
    parent_id: str | None
    name: str
    role: str                      # LLM, TOOL or OTHER (chains, agents, retrievers ...)
    start: float
    end: float
    model: str = ""
    prompt: str = ""               # the exact prompt, or the message list written out as text
    output: str = ""
    inputs: Any = None             # tool input, or a chain's inputs
    usage: dict[str, int] | None = None
    error: tuple[str, str] | None = None   # (error type, message)
    children: list["Span"] = field(default_factory=list)


@dataclass
class Conversion:
    """What an importer made of a file: the events, what it recognised, and what it had to guess."""

    format: str
    recognised: str                # one line: "OTLP JSON (OpenInference): 14 spans, 4 LLM, 6 tool"
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


def link(spans: list[Span]) -> tuple[list[Span], list[str]]:
    """Children under their parents; spans whose parent is missing become roots (with a warning)."""
    by_id = {span.span_id: span for span in spans}
    roots, orphans = [], []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        parent = by_id.get(span.parent_id) if span.parent_id else None
        if span.parent_id and parent is None:
            orphans.append(span.name)
        (parent.children if parent is not None else roots).append(span)
    warnings = []
    if orphans:
        names = ", ".join(sorted(set(orphans))[:5])
        warnings.append(f"{len(orphans)} span(s) name a parent that is not in the file ({names}): "
                        "shown at the top level")
    return roots, warnings


class _EventBuilder:
    """Walks the span tree: each span adds its events at its start and end times, frames = its ancestors."""

    def __init__(self, origin: float, source_file: str, run_failed: bool = False) -> None:
        self.origin, self.source_file = origin, source_file
        self.run_failed = run_failed  # a tool error the run survived was handled (became an observation)
        self.timed: list[tuple[float, int, int, EventBase | None, dict[str, Any]]] = []
        self.order = 0

    def add(self, time: float, depth_key: int, cls: type[EventBase], frames: tuple[str, ...],
            **payload: Any) -> None:
        self.order += 1
        self.timed.append((time, depth_key, self.order, None, {"cls": cls, "frames": frames, **payload}))

    def walk(self, span: Span, frames: tuple[str, ...]) -> None:
        frames = frames + (span.name,)
        depth = len(frames)
        if span.role == LLM:
            self.add(span.start, depth, LLMStartEvent, frames, model=span.model or "unknown", prompt=span.prompt,
                     stop=[])
        elif span.role == TOOL:
            self.add(span.start, depth, ToolStartEvent, frames, tool=span.name, tool_input=text_of(span.inputs))
        for child in span.children:
            self.walk(child, frames)
        # Ends sort deeper-first at equal times, so a child closes before its parent.
        if span.role == LLM:
            self.add(span.end, -depth, LLMEndEvent, frames, text=span.output, usage=span.usage,
                     duration=round(max(span.end - span.start, 0.0), 6))
        elif span.role == TOOL and span.error:
            self.add(span.end, -depth, ToolErrorEvent, frames, tool=span.name, error_type=span.error[0],
                     message=span.error[1], handled=not self.run_failed, observation=None)
        elif span.role == TOOL:
            self.add(span.end, -depth, ToolEndEvent, frames, tool=span.name, observation=span.output)

    def events(self, iteration_of) -> list[EventBase]:
        built = []
        for seq, (time, _key, _order, _, fields) in enumerate(sorted(self.timed, key=lambda e: e[:3])):
            cls, frames = fields.pop("cls"), fields.pop("frames")
            source = SourceRef(file=self.source_file, line=0, function=frames[-1])
            built.append(cls(seq=seq, run_id="imported", t=round(max(time - self.origin, 0.0), 6),
                             iteration=iteration_of(cls, frames, built), frames=frames, source=source, **fields))
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


def events_from_spans(spans: list[Span], source_file: str) -> tuple[list[EventBase], list[str]]:
    """The run as loopscope events: chain_start, model and tool calls in time order, chain_end (or
    chain_error). One root span is the run; several (or orphans) sit under a run made up for them."""
    roots, warnings = link(spans)
    if not roots:
        return [], warnings
    if len(roots) == 1 and roots[0].role == OTHER:
        root = roots[0]
    else:  # a run made up to hold them, carrying the longest root's inputs and outcome
        main = max(roots, key=lambda s: (s.role == OTHER, s.end - s.start))
        root = Span("imported", None, "imported run", OTHER, min(s.start for s in roots),
                    max(s.end for s in roots), inputs=main.inputs, output=main.output, error=main.error,
                    children=roots)
    builder = _EventBuilder(root.start, source_file, run_failed=root.error is not None)
    frames = (root.name,)
    tools = [ToolInfo(name=name, description="") for name in _tool_names(root, {})]
    builder.add(root.start, -10**6, ChainStartEvent, frames, inputs=_as_inputs(root.inputs), tools=tools,
                settings={"imported": True})
    for child in root.children:
        builder.walk(child, frames)
    if root.error:
        builder.add(root.end, 10**6, ChainErrorEvent, frames, error_type=root.error[0], message=root.error[1])
    else:
        builder.add(root.end, 10**6, ChainEndEvent, frames, outputs={"output": root.output})
    tool_frames: set[tuple[str, ...]] = set()  # filled as tool spans are met
    state = {"iteration": 0}

    def iteration_of(cls, event_frames, built) -> int:
        # A model call not inside a tool starts a round (plan); calls inside tools (a calculator's) do not.
        if cls is ToolStartEvent:
            tool_frames.add(event_frames)
        nested = any(event_frames[:n] in tool_frames for n in range(1, len(event_frames)))
        if cls is LLMStartEvent and not nested:
            state["iteration"] += 1
        if cls in (ChainStartEvent,):
            return 0
        return state["iteration"]

    return builder.events(iteration_of), warnings
