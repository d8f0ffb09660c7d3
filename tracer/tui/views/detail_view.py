"""The detail pane: every field of the current event, shown literally."""

from __future__ import annotations

import json
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from executor.events import EventBase

from ...debug.session import UnreadableEvent
from ...report.cost.prices import CallCost
from ...report.text.literal import literal
from ..chrome import localise
from .clipped_text import clipped
from .event_summary import kind_style
from .mcp_view import mcp_detail

ENVELOPE = ("seq", "run_id", "t", "iteration", "frames", "source", "kind")
NAME_WIDTH = 14
SHOWN_FIRST = ("settings",)


# The envelope's names in Chinese; a payload field keeps its own name (conditions and traces use it).
LABELS_ZH = {
    "kind": "类型",
    "seq": "序号",
    "run_id": "运行 id",
    "frames": "调用栈",
    "source": "源码",
    "tokens": "token",
}


def _label(name: str, lang: str) -> str:
    label = LABELS_ZH.get(name, name) if lang == "zh" else name
    return label + " " * max(NAME_WIDTH - cell_len(label), 1)


def _value(value: Any, lang: str = "en") -> Text:
    if isinstance(value, str):
        if "\n" in value or len(value) > 60:
            size = f"（{len(value):,} 个字符）" if lang == "zh" else f"({len(value):,} chars)"
            return Text.assemble((size + "\n", "dim"), clipped(value))
        return literal(repr(value))
    if isinstance(value, (dict, list)):
        return clipped(json.dumps(value, ensure_ascii=False, indent=2))
    return literal(repr(value))


def detail_text(event: EventBase | UnreadableEvent, cost: CallCost | None = None, lang: str = "en") -> Text:
    zh = lang == "zh"
    if isinstance(event, UnreadableEvent):
        unreadable = f"事件 {event.seq} 无法读取：" if zh else f"event {event.seq} cannot be read:"
        return Text(f"{unreadable}\n{event.problem}", style="bold red")
    text = Text()
    text.append(_label("kind", lang))
    text.append(event.kind, style=kind_style(event.kind, event))
    place = (
        f"第 {event.iteration} 轮    时间 {event.t:.6f}\u00a0秒"  # a no-break space: the unit stays with its number
        if zh
        else f"iteration {event.iteration}    t {event.t:.6f}s"
    )
    text.append(f"\n{_label('seq', lang)}{event.seq}    {place}\n")
    text.append(_label("run_id", lang))
    text.append_text(literal(event.run_id))
    # Even the envelope comes from a file someone may have written by hand: shown literally too.
    text.append("\n" + _label("frames", lang))
    text.append_text(literal(" › ".join(event.frames) + "\n"))
    text.append(_label("source", lang))
    where = f"{event.source.file}:{event.source.line}"
    text.append_text(
        literal(f"{where}，在 {event.source.function}() 里\n" if zh else f"{where} in {event.source.function}()\n")
    )
    mcp = mcp_detail(event, lang)
    if mcp is not None:  # an MCP request, its raw answer, the probe, or the servers a run listed its tools from
        text.append_text(mcp)
    if cost is not None:  # the whole model call's bill, shown at both its llm_start and its llm_end
        text.append(_label("tokens", lang), style="bold")
        text.append(localise(cost.describe(), lang) + "\n", style="magenta")
    payload = event.model_dump(exclude=set(ENVELOPE))
    # The settings are what tutorials point at; the long tool descriptions would push them below the fold.
    payload = {name: payload[name] for name in sorted(payload, key=lambda name: name not in SHOWN_FIRST)}
    if payload:
        text.append("\n")
    for name, value in payload.items():
        text.append(_label(name, lang), style="bold")
        text.append_text(_value(value, lang))
        text.append("\n")
    return text
