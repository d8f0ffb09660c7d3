"""Frameworks' spans recognised by their shape: a LangChain ToolMessage as a tool's output, BeeAI's emitter events (X.start-N, X.success-N, X.finish-N) as one call."""

from __future__ import annotations

import re
from typing import Any

from .messages import content_of
from .span_attributes import LLM, TOOL
from .spans import Span


def _tool_message_body(value: Any) -> Any:
    """A ToolMessage's own fields, from any of its forms: its dump, its serialised form
    ({"lc": 1, "kwargs": ...}), or messages_to_dict's ({"type": "tool", "data": ...}, what
    OpenInference's LangChain instrumentation writes as a tool span's output)."""
    if isinstance(value, dict) and isinstance(value.get("kwargs"), dict) and "lc" in value:
        return value["kwargs"]
    if isinstance(value, dict) and value.get("type") == "tool" and isinstance(value.get("data"), dict):
        return value["data"]
    return value


def is_tool_message(value: Any) -> bool:
    """A LangChain ToolMessage (its dump, or its serialised form): what a LangChain tool returns."""
    value = _tool_message_body(value)
    return isinstance(value, dict) and value.get("type") == "tool" and "tool_call_id" in value


def tool_message_fields(value: dict[str, Any]) -> tuple[str, str | None, bool]:
    """A ToolMessage's content (as text), the call id it answers, and whether it reports a failure."""
    value = _tool_message_body(value)
    call_id = value.get("tool_call_id")
    return (
        content_of(value.get("content")).text,
        call_id if isinstance(call_id, str) else None,
        value.get("status") == "error",
    )


# BeeAI's OpenInference instrumentation writes each emitter event as a span of its own, all ending
# when the run ends: `backend.openai.chat.start-14`, then `…success-14` and `…finish-14`.
_EMITTER_EVENT = re.compile(r"^(?P<target>.+)\.(?P<event>start|success|finish|error)-(?P<group>\d+)$")


def merge_emitter_events(spans: list[Span]) -> tuple[list[Span], int]:
    """BeeAI's start / success / error / finish spans of one call as one span: the start's request,
    the success's reply or output, the error's failure, ending when the last of them happened. A call
    whose later events are not in the file ends when the next span starts. How many spans were merged."""
    groups: dict[tuple[str, str], dict[str, Span]] = {}
    for span in spans:
        found = _EMITTER_EVENT.match(span.name)
        if found and span.role in (LLM, TOOL):
            groups.setdefault((found["target"], found["group"]), {})[found["event"]] = span
    merged: set[int] = set()
    starts = sorted(t for s in spans if (t := s.start) is not None)
    for (target, _group), members in groups.items():
        start = members.get("start")
        if start is None:
            continue
        start.name = target.rsplit(".", 1)[-1] if start.role == TOOL and start.name.startswith("tool.") else start.name
        later = [members[e] for e in ("success", "error", "finish") if e in members]
        _merge_into(start, members)
        merged.update(id(span) for span in later)
        times = [s.start for s in later if s.start is not None]
        start.end = max(times) if times else _next_after(starts, start.start)
    kept = [span for span in spans if id(span) not in merged]
    return kept, len(spans) - len(kept)


def _merge_into(start: Span, members: dict[str, Span]) -> None:
    success, error = members.get("success"), members.get("error")
    if success is not None:
        if start.role == LLM and success.reply is not None and success.reply.seen:
            start.reply = success.reply
            start.usage = start.usage or success.usage
        elif start.role == TOOL:
            start.output = success.output
    if error is not None:
        start.error = error.error or ("Error", str(error.output or ""))


def _next_after(starts: list[float], time: float | None) -> float | None:
    """The first span start after `time`: when an instant event's successor shows it was over."""
    if time is None:
        return None
    return next((t for t in starts if t > time), time)
