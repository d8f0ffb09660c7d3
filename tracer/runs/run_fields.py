"""The run-level words of `--where` and `--sort` (cost, outcome, iterations …): their types and values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..trace.annotations import NAME
from .run_row import RunRow

# name -> (type, the row's value). Numbers compare with numbers, text with quoted text, lists with `in`.
RUN_FIELDS: dict[str, tuple[str, Callable[[RunRow], Any]]] = {
    "path": ("text", lambda row: row.path),
    "name": ("text", lambda row: row.name),
    "run_id": ("text", lambda row: row.run_id),
    "scenario": ("text", lambda row: row.scenario),
    "agent": ("text", lambda row: row.agent),
    "parent": ("text", lambda row: row.parent),
    "imported": ("text", lambda row: row.imported),
    "outcome": ("text", lambda row: row.outcome),
    "detail": ("text", lambda row: row.detail),
    "model": ("text", lambda row: row.model),
    "models": ("list", lambda row: row.models),
    "recorded": ("text", lambda row: row.recorded_at),
    "events": ("number", lambda row: row.events),
    "iterations": ("number", lambda row: row.iterations),
    "model_calls": ("number", lambda row: row.model_calls),
    "tool_calls": ("number", lambda row: row.tool_calls),
    "errors": ("number", lambda row: row.errors),
    "tool_errors": ("number", lambda row: row.tool_errors),
    "parse_errors": ("number", lambda row: row.parse_errors),
    "invalid_tools": ("number", lambda row: row.invalid_tools),
    "retries": ("number", lambda row: row.retries),
    "fallbacks": ("number", lambda row: row.fallbacks),
    "tokens": ("number", lambda row: row.tokens),
    "prompt_tokens": ("number", lambda row: row.prompt_tokens),
    "completion_tokens": ("number", lambda row: row.completion_tokens),
    "cost": ("number", lambda row: row.cost),
    "duration": ("number", lambda row: row.duration),
    "size": ("number", lambda row: row.size),
}
# The optional ones: `scenario == None` asks for runs without one.
MAY_BE_NONE = {"run_id", "scenario", "agent", "parent", "imported", "cost", "duration"}


SCORE_PREFIX = "score."  # `score.helpful`: the run's latest score of that name (a number or a label)


def score_name(name: str) -> str | None:
    """ "helpful" for "score.helpful"; None for any other word."""
    if name.startswith(SCORE_PREFIX) and NAME.fullmatch(name[len(SCORE_PREFIX) :]):
        return name[len(SCORE_PREFIX) :]
    return None


def is_run_field(name: str) -> bool:
    """A word --sort takes: a run field, or score.NAME."""
    return name in RUN_FIELDS or score_name(name) is not None


def run_value(row: RunRow, name: str) -> Any:
    score = score_name(name)
    if score is not None:
        return row.scores.get(score)
    return RUN_FIELDS[name][1](row)


def sort_key(name: str, descending: bool = False) -> Callable[[RunRow], tuple[Any, ...]]:
    """A key ordering rows by run field `name`; a run without the value (no cost, unreadable) sorts
    last either way, and ties keep path order."""
    score = score_name(name)
    if score is not None:
        return _score_key(score, descending)
    kind, value_of = RUN_FIELDS[name]

    def key(row: RunRow) -> tuple[Any, ...]:
        value = value_of(row)
        if value is None:
            return (1, 0, row.path)
        if kind == "list":
            value = ", ".join(value)
        if descending:
            value = -value if kind == "number" else _Reversed(value)
        return (0, value, row.path)

    return key


def _score_key(score: str, descending: bool) -> Callable[[RunRow], tuple[Any, ...]]:
    """Numbers first (by value), then labels (as text), then runs without the score."""

    def key(row: RunRow) -> tuple[Any, ...]:
        value = row.scores.get(score)
        if value is None:
            return (2, 0, row.path)
        if isinstance(value, str):
            return (1, _Reversed(value) if descending else value, row.path)
        return (0, -value if descending else value, row.path)

    return key


class _Reversed:
    """Text that sorts backwards (to sort descending by text while missing values stay last)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __lt__(self, other: _Reversed) -> bool:
        return self.text > other.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reversed) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)
