"""The detail pane: every field of the current event, shown literally."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text

from executor.events import EventBase

from ...debug.session import UnreadableEvent
from ...report.cost import CallCost
from ...report.literal import literal
from ..chrome import localise
from .clipped_text import clipped
from .event_summary import kind_style
from .mcp_view import mcp_detail

ENVELOPE = ("seq", "run_id", "t", "iteration", "frames", "source", "kind")
NAME_WIDTH = 14
SHOWN_FIRST = ("settings",)


def _value(value: Any) -> Text:
    if isinstance(value, str):
        if "\n" in value or len(value) > 60:
            return Text.assemble((f"({len(value):,} chars)\n", "dim"), clipped(value))
        return literal(repr(value))
    if isinstance(value, (dict, list)):
        return clipped(json.dumps(value, ensure_ascii=False, indent=2))
    return literal(repr(value))


def detail_text(event: EventBase | UnreadableEvent, cost: CallCost | None = None, lang: str = "en") -> Text:
    if isinstance(event, UnreadableEvent):
        return Text(f"event {event.seq} cannot be read:\n{event.problem}", style="bold red")
    text = Text()
    text.append(f"{'kind':<{NAME_WIDTH}}")
    text.append(event.kind, style=kind_style(event.kind, event))
    text.append(f"\n{'seq':<{NAME_WIDTH}}{event.seq}    iteration {event.iteration}    t {event.t:.6f}s\n")
    text.append(f"{'run_id':<{NAME_WIDTH}}")
    text.append_text(literal(event.run_id))
    # Even the envelope comes from a file someone may have written by hand: shown literally too.
    text.append(f"\n{'frames':<{NAME_WIDTH}}")
    text.append_text(literal(" › ".join(event.frames) + "\n"))
    text.append(f"{'source':<{NAME_WIDTH}}")
    text.append_text(literal(f"{event.source.file}:{event.source.line} in {event.source.function}()\n"))
    mcp = mcp_detail(event)
    if mcp is not None:  # an MCP request, its raw answer, the probe, or the servers a run listed its tools from
        text.append_text(mcp)
    if cost is not None:  # the whole model call's bill, shown at both its llm_start and its llm_end
        text.append(f"{'tokens':<{NAME_WIDTH}}", style="bold")
        text.append(localise(cost.describe(), lang) + "\n", style="magenta")
    payload = event.model_dump(exclude=set(ENVELOPE))
    # The settings are what tutorials point at; the long tool descriptions would push them below the fold.
    payload = {name: payload[name] for name in sorted(payload, key=lambda name: name not in SHOWN_FIRST)}
    if payload:
        text.append("\n")
    for name, value in payload.items():
        text.append(f"{name:<{NAME_WIDTH}}", style="bold")
        text.append_text(_value(value))
        text.append("\n")
    return text
