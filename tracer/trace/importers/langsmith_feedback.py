"""LangSmith feedback on a run and its child runs (`feedback_stats`, and the feedback list some exports carry) as loopscope scores."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..annotations import MAX_COMMENT, Score, ScoreError, checked_value
from .scores import score_word
from .shape import identifier

SOURCE = "langsmith"
STATS, ITEM = "feedback_stats", "feedback"  # the `kind` of a raw entry in TraceInfo.scores


def feedback_entries(run: dict[str, Any]) -> list[dict[str, Any]]:
    """A run's feedback as TraceInfo keeps the root's (and the chain_end's origin shows it), and a child
    run's Span keeps its own: one entry per feedback_stats key, then one per feedback item, each with its
    `name` and `kind`."""
    entries: list[dict[str, Any]] = []
    stats = run.get("feedback_stats")
    if isinstance(stats, dict):  # {key: {"n": 2, "avg": 0.5, "values": {...}, "comments": [...], ...}}
        for key, stat in stats.items():
            entries.append({"name": key, "kind": STATS, **(stat if isinstance(stat, dict) else {"avg": stat})})
    items = run.get("feedback")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and _about(item, run):
            entries.append(_item_entry(item))
    return entries


def child_feedback(root: dict[str, Any], children: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each child run's id -> its feedback entries: its own, then the root's feedback items that name it
    (an export that joined client.list_feedback to the root run holds the whole trace's feedback there:
    an evaluator's score of one model call, a thumbs-down on one tool's output). Runs with none are left out."""
    found: dict[str, list[dict[str, Any]]] = {}
    for child in children:
        entries = feedback_entries(child)
        if entries and identifier(child.get("id")) is not None:
            found[str(child["id"])] = entries
    ids = {identifier(child.get("id")) for child in children} - {None}
    items = root.get("feedback")
    for item in items if isinstance(items, list) else []:
        about = identifier(item.get("run_id")) if isinstance(item, dict) else None
        if about in ids and about != identifier(root.get("id")):
            given = found.setdefault(str(about), [])
            if not any(item.get("id") is not None and entry.get("id") == item.get("id") for entry in given):
                given.append(_item_entry(item))  # (the same item on the child's own list is kept once)
    return found


def _item_entry(item: dict[str, Any]) -> dict[str, Any]:
    return {"name": item.get("key"), "kind": ITEM, **{k: v for k, v in item.items() if k != "key"}}


def _about(item: dict[str, Any], run: dict[str, Any]) -> bool:
    """Feedback given on this run (or naming no run): a list joined from list_feedback may hold others'."""
    about = item.get("run_id")
    return about is None or str(about) == str(run.get("id"))


def langsmith_scores(entries: Iterable[dict[str, Any]]) -> list[Score]:
    """Scores from feedback_entries: each feedback item its own score (`score`, else its `value` as a
    label or number); a key known only from feedback_stats gets its mean (`avg`), or for categorical
    feedback its most given label (`values` counts). The latest last: it is the one `runs` shows."""
    entries = [entry for entry in entries if isinstance(entry, dict)]
    items = [_item_score(entry) for entry in entries if entry.get("kind") == ITEM]
    found = sorted((score for score in items if score is not None), key=lambda s: s.at)
    itemised = {score.name for score in found}  # the stat of a key whose items are here only averages them
    stats = [_stat_score(entry) for entry in entries if entry.get("kind") == STATS]
    return [score for score in stats if score is not None and score.name not in itemised] + found


def _item_score(item: dict[str, Any]) -> Score | None:
    value = item.get("score") if item.get("score") is not None else item.get("value")
    at = item.get("modified_at") or item.get("created_at")
    return _score(item.get("name"), value, item.get("comment"), at)


def _stat_score(stat: dict[str, Any]) -> Score | None:
    average, values = stat.get("avg"), stat.get("values")
    value: object = None
    if isinstance(average, (int, float)) and not isinstance(average, bool) and math.isfinite(average):
        value = average
    elif isinstance(values, dict):  # categorical: {"good": 2, "bad": 1}
        counted = sorted((-_count(count), label) for label, count in values.items() if _count(count) > 0)
        value = counted[0][1] if counted else None  # the most given; a tie goes to the first in order
    comments = stat.get("comments")
    said = "; ".join(c for c in comments if isinstance(c, str) and c.strip()) if isinstance(comments, list) else ""
    return _score(stat.get("name"), value, said, "")


def _count(count: object) -> int:
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def _score(name: object, value: object, comment: object, at: object) -> Score | None:
    word = score_word(name)
    if word is None or value is None or isinstance(value, (dict, list)):
        return None  # LangSmith's value may be any JSON; only a number or a label is a score
    try:
        checked = checked_value(value)
    except ScoreError:
        return None
    comment = comment[:MAX_COMMENT] if isinstance(comment, str) else ""
    return Score(word, checked, comment, at[:40] if isinstance(at, str) else "", SOURCE)
