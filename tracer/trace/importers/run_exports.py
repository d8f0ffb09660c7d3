"""What LangSmith's and Langfuse's API exports share: ISO times, token counts, error text, how items are named in messages."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from .billed_tokens import with_billed_parts
from .shape import ShapeNotes, identifier, quoted
from .spans import text_of


def seconds(value: Any, where: str, notes: ShapeNotes) -> float | None:
    """Seconds since 1970 from an ISO 8601 time (or a number of seconds); None when missing, and None
    (noted) when it is no time: "2024-02-30T25:61:00Z", "soon", 1e400."""
    if value in (None, ""):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        # Milliseconds since 1970 (LangSmith's JS SDK) are past 1e11; seconds reach that in the year 5138.
        return float(value) / 1000 if abs(value) > 1e11 else float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except (ValueError, OverflowError, OSError):
            pass  # noted below with the others
    notes.note(where, value, "a time")
    return None


def usage(
    counts: dict[str, Any], prompt_key: str, completion_key: str, where: str, notes: ShapeNotes
) -> dict[str, int] | None:
    """Token counts under the given keys, when both are there and both are counts (else noted, None)."""
    if counts.get(prompt_key) is None or counts.get(completion_key) is None:
        return None
    prompt = notes.count(counts[prompt_key], f"{where}{prompt_key}")
    completion = notes.count(counts[completion_key], f"{where}{completion_key}")
    if prompt is None or completion is None:
        return None
    found = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    return with_billed_parts(found, counts)


def error_of(text: Any) -> tuple[str, str] | None:
    """(type, message) from an error's text: a traceback's last line `Type: message`, else ("Error", text)."""
    if not text:
        return None
    lines = text_of(text).strip().splitlines()
    last = lines[-1] if lines else text_of(text)
    kind, sep, message = last.partition(":")
    return (kind.strip(), message.strip()) if sep and kind.strip().isidentifier() else ("Error", last)


def item_name(kind: str, item: dict[str, Any], where: str) -> str:
    """How messages name a run or observation: by its id, else by where it is in the file."""
    found = identifier(item.get("id"))
    return f"{kind} {quoted(found)}" if found else where


def object_or_empty(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
