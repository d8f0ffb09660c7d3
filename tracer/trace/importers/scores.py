"""Other tools' scores (Langfuse scores, Phoenix annotations) as loopscope scores: a word for a name, a number or a label."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..annotations import Score, ScoreError, checked_name, checked_value

_NOT_WORD = re.compile(r"[^A-Za-z0-9_]+")


def score_word(name: object) -> str | None:
    """A tool's score name as a word `--where score.NAME` can name ("Answer correctness" → answer_correctness)."""
    if not isinstance(name, str):
        return None
    word = _NOT_WORD.sub("_", name.strip()).strip("_").lower()[:64]
    if word[:1].isdigit():
        word = f"s_{word}"[:64]
    try:
        return checked_name(word)
    except ScoreError:
        return None


def _score(name: object, value: object, comment: object, at: object, source: str) -> Score | None:
    word = score_word(name)
    if word is None or value is None:
        return None
    try:
        checked = checked_value(value)
    except ScoreError:
        return None  # a NaN or a label with control characters: not a score we can keep
    return Score(
        word,
        checked,
        comment[:2000] if isinstance(comment, str) else "",
        at[:40] if isinstance(at, str) else "",
        source,
    )


def langfuse_scores(raw: Iterable[dict[str, Any]]) -> list[Score]:
    """A Langfuse trace's `scores`: NUMERIC and BOOLEAN ones by `value`, CATEGORICAL ones by `stringValue`."""
    found = []
    for item in raw:
        value = item.get("stringValue") if item.get("dataType") == "CATEGORICAL" else item.get("value")
        if value is None:
            value = item.get("value", item.get("stringValue"))
        score = _score(item.get("name"), value, item.get("comment"), item.get("timestamp"), "langfuse")
        if score is not None:
            found.append(score)
    return sorted(found, key=lambda s: s.at)  # the latest last: it is the one `runs` shows


def phoenix_scores(annotations: Iterable[Any]) -> list[Score]:
    """Phoenix trace or span annotations: `result.score` when it is a number, else `result.label`."""
    found = []
    for item in annotations:
        if not isinstance(item, dict) or not isinstance(item.get("result"), dict):
            continue
        result = item["result"]
        value = result.get("score") if result.get("score") is not None else result.get("label")
        at = item.get("updated_at") or item.get("created_at")
        score = _score(item.get("name"), value, result.get("explanation"), at, "phoenix")
        if score is not None:
            found.append(score)
    return sorted(found, key=lambda s: s.at)
