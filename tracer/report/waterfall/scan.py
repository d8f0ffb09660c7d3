"""Reads a trace into a waterfall: events decoded, or for a big file only the few bytes of each line a bar needs."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from executor.events import EventBase

from ...trace.index import TraceIndex
from ...trace.numpy_on_use import np
from ...trace.reader import TraceFile
from .builder import WaterfallBuilder
from .picture import BAR_EVENTS, PAYLOAD_EVENTS, Waterfall

Progress = Callable[[int, int], None]  # (events read, of how many)
PROGRESS_EVERY = 20_000


class Cancelled(Exception):
    """The waterfall was not wanted any more (the debugger closed, another trace was opened)."""


def feed_event(builder: WaterfallBuilder, position: int, event: EventBase) -> None:
    """One decoded event (a live run's, or a small trace's) into the builder."""
    kind = event.kind
    if kind not in BAR_EVENTS:
        builder.events = max(builder.events, position + 1)
        return
    call_id = getattr(event, "tool_call_id", None)
    payload: Any = None
    if kind == "llm_start":
        payload = getattr(event, "model", "")
    elif kind in ("tool_start", "tool_end"):
        payload = getattr(event, "tool", "")
    elif kind in PAYLOAD_EVENTS:
        payload = event.model_dump(mode="json")
    builder.add(position, kind, event.t, call_id, payload)


def waterfall_of_events(events: Iterable[EventBase]) -> Waterfall:
    builder = WaterfallBuilder()
    for position, event in enumerate(events):
        feed_event(builder, position, event)
    return builder.waterfall()


def waterfall_of_trace(
    trace: TraceFile,
    index: TraceIndex,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Waterfall:
    """Every bar of an open, indexed trace. The index says which events are bars; of those only
    the time, the call id and the name are read from the line, and the rare waits and errors are
    decoded: a million-event trace is read in a few seconds (see bench/bench_waterfall.py)."""
    import orjson  # late: the debugger's first frame imports this module (its pane) and reads no trace yet

    builder = WaterfallBuilder()
    total = len(trace)
    kinds = [shape.kind for shape in index.shapes]
    wanted = np.array([kind in BAR_EVENTS for kind in kinds] + [False], dtype=bool)
    codes = index.shape_codes(0, total)
    positions = np.flatnonzero(wanted[codes])
    tools = [shape.tool for shape in index.shapes]
    released = 0
    for count, (position, code) in enumerate(zip(positions.tolist(), codes[positions].tolist())):
        if count % PROGRESS_EVERY == 0:
            if cancelled is not None and cancelled():
                raise Cancelled
            if progress is not None:
                progress(position, total)
            # The lines read are not needed again: their pages of the mapped file may go (else a
            # million-event trace's whole file would count as this process's memory).
            trace.release_lines(released, position - released)
            released = position
        kind = kinds[code]
        raw = trace.raw_line(position)
        fast = None if kind in PAYLOAD_EVENTS else _fast_fields(raw, kind)
        if fast is None:
            fields = _decoded(orjson, raw)
            payload: Any = fields
            if kind == "llm_start":
                payload = fields.get("model")
            elif kind in ("tool_start", "tool_end"):
                payload = fields.get("tool")
            builder.add(position, kind, _time(fields.get("t")), _call_id(fields.get("tool_call_id")), payload)
        else:
            t, call_id, model = fast
            builder.add(position, kind, t, call_id, model if kind == "llm_start" else tools[code])
    builder.events = total
    if progress is not None:
        progress(total, total)
    return builder.waterfall()


def _decoded(orjson: Any, raw: bytes) -> dict[str, Any]:
    """A line as a dict: orjson, or the json module for what orjson refuses (a lone surrogate written
    as a \\u escape is valid JSON that orjson rejects); a line neither reads has no fields."""
    try:
        found = orjson.loads(raw)
    except orjson.JSONDecodeError:
        try:
            found = json.loads(raw)
        except ValueError:
            return {}
    return found if isinstance(found, dict) else {}


def _fast_fields(raw: bytes, kind: str) -> tuple[float, str | None, str] | None:
    """(t, tool_call_id, model) from a line in TraceWriter's layout, or None to decode it whole.

    The envelope's `t` is the first key after seq and run_id, and `tool_call_id` the last field of
    these kinds; a quote inside any string is escaped, so `,"t":` and `,"tool_call_id":` cannot
    be found inside a value. Anything else (another writer's order, an escape) is decoded whole.
    """
    if not raw.startswith(b'{"seq":'):
        return None
    at = raw.find(b',"t":')
    comma = raw.find(b",", at + 5)
    if at < 0 or comma < 0:
        return None
    try:
        t = float(raw[at + 5 : comma])
    except ValueError:
        return None
    key = raw.rfind(b',"tool_call_id":')
    value = raw[key + 16 : -1] if key > 0 and raw.endswith(b"}") else b""
    if value == b"null":
        call_id = None
    elif len(value) > 1 and value[:1] == b'"' and value[-1:] == b'"' and b'"' not in value[1:-1] and b"\\" not in value:
        call_id = value[1:-1].decode("utf-8", "replace")
    else:
        return None
    model = ""
    if kind == "llm_start":
        found = _plain_string_after(raw, b'"kind":"llm_start","model":"')
        if found is None:
            return None
        model = found
    return t, call_id, model


def _plain_string_after(raw: bytes, key: bytes) -> str | None:
    at = raw.find(key)
    if at < 0:
        return None
    start = at + len(key)
    end = raw.find(b'"', start)
    if end < 0 or b"\\" in raw[start:end]:
        return None
    return raw[start:end].decode("utf-8", "replace")


def _time(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else float("nan")


def _call_id(value: Any) -> str | None:
    return value if isinstance(value, str) else None
