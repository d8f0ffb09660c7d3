"""An event's shape (kind, call stack, source line, tool) and the fast scan that reads shapes from a trace's raw bytes."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EventShape:
    """Everything but the payload that events sharing an index code have in common.

    A run has few distinct shapes (one per yield site, stack and tool), so the index
    stores one small integer per event and these facts once per shape.
    """

    kind: str
    frames: tuple[str, ...]
    file: str
    line: int
    function: str
    tool: str | None

    @property
    def depth(self) -> int:
        return len(self.frames)


# The envelope as TraceWriter writes it (pydantic keeps field order); the second group is the shape.
# [^"]* is the fastest scan; a value with an escaped quote fails _SHAPE below and we fall back.
_ENVELOPE = re.compile(
    rb'\n\{"seq":\d+,"run_id":"[^"]*","t":[-+0-9.eE]+,"iteration":(-?\d+),'
    rb'("frames":\[[^\]]*\],"source":\{"file":"[^"]*","line":\d+,"function":"[^"]*"\},'
    rb'"kind":"[a-z_]+"(?:,"(?:tool|requested)":"[^"]*"|,"action":\{"tool":"[^"]*")?)'
)
_TEXT = rb'[^"\\]*(?:\\.[^"\\]*)*'
_SHAPE = re.compile(
    rb'"frames":\[([^\]]*)\],"source":\{"file":"('
    + _TEXT
    + rb')","line":(\d+),"function":"('
    + _TEXT
    + rb')"\},"kind":"([a-z_]+)"(?:,"(?:tool|requested)":"('
    + _TEXT
    + rb')"|,"action":\{"tool":"('
    + _TEXT
    + rb')")?'
)
_CHUNK = 4 << 20  # small enough that a background scan lets the UI thread in often


def json_text(raw: bytes) -> str:
    return json.loads(b'"' + raw + b'"')


class Unusual(ValueError):
    """A line the fast scan cannot read exactly; the index falls back to decoding JSON."""


def shape_from_tail(tail: bytes) -> EventShape:
    match = _SHAPE.fullmatch(tail)
    if match is None:
        raise Unusual(tail[:80])
    frames, file, line, function, kind, tool, step_tool = match.groups()
    tool_bytes = tool if tool is not None else step_tool
    return EventShape(
        kind=kind.decode(),
        frames=tuple(json.loads(b"[" + frames + b"]")),
        file=json_text(file),
        line=int(line),
        function=json_text(function),
        tool=json_text(tool_bytes) if tool_bytes is not None else None,
    )


def shape_of(event: dict[str, Any]) -> EventShape:
    """The shape of a decoded event (the JSON dict)."""
    source = event["source"]
    return EventShape(
        kind=event["kind"],
        frames=tuple(event["frames"]),
        file=source["file"],
        line=int(source["line"]),
        function=source["function"],
        tool=event_tool(event),
    )


def envelopes(path: Any) -> Iterator[list[tuple[bytes, bytes]]]:
    """(iteration, shape tail) of every event line, one list per chunk of the file.

    Reads into one reused buffer (fresh 32 MB allocations cost more than the copy), matches
    up to the last newline and moves the unfinished line to the front for the next read.
    """
    filled = 0
    with open(path, "rb") as handle:
        buffer = bytearray(max(1, min(_CHUNK, os.fstat(handle.fileno()).st_size)))
        while True:
            if filled == len(buffer):  # one line longer than the buffer: make room
                buffer.extend(bytes(len(buffer)))
            with memoryview(buffer) as view:
                got = handle.readinto(view[filled:])
            limit = filled + got
            end = buffer.rfind(b"\n", 0, limit) if got else limit
            if got and end <= 0:
                filled = limit
                continue
            yield _ENVELOPE.findall(buffer, 0, end)
            if not got:
                return
            buffer[: limit - end] = buffer[end:limit]
            filled = limit - end


def event_tool(event: dict[str, Any]) -> str | None:
    """The tool an event is about (see resolve_in), or None."""
    if "tool" in event and isinstance(event["tool"], str):
        return event["tool"]
    if event.get("kind") == "invalid_tool":
        return event.get("requested")
    if event.get("kind") == "step":
        return (event.get("action") or {}).get("tool")
    return None
