"""The columns of the runs table, shared by the printed table and the Textual one: titles, cells, sort keys."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..i18n import say
from .aggregates import ModelStats, ToolStats
from .run_row import RunRow


def shown_path(path: str, base: str | None = None) -> str:
    """`path` relative to `base` (the current folder) when it lies below it, else as it is."""
    base = base or os.getcwd()
    relative = os.path.relpath(path, base) if os.path.isabs(path) else path
    return path if relative.startswith("..") else relative


def dollars(value: float | None, estimated: bool = False) -> str:
    if value is None:
        return "—"
    return ("~" if estimated else "") + (f"${value:.4f}" if value >= 0.01 else f"${value:.6f}")


def count(value: int, estimated: bool = False) -> str:
    return ("~" if estimated else "") + f"{value:,}"


def seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 1:
        return f"{value * 1000:.0f}ms" if value >= 0.01 else f"{value * 1000:.1f}ms"
    if value < 60:
        return f"{value:.2f}s" if value < 10 else f"{value:.1f}s"
    minutes, rest = divmod(round(value), 60)
    return f"{minutes}m{rest:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


def models_cell(row: RunRow) -> str:
    return row.model + (f" +{len(row.models) - 1}" if len(row.models) > 1 else "")


def recorded_cell(row: RunRow) -> str:
    """When the run began; "~" marks a file's modification time (a trace from before headers said when)."""
    if not row.recorded:
        return "—"
    return ("~" if row.recorded_from_file else "") + datetime.fromtimestamp(row.recorded).strftime("%Y-%m-%d %H:%M")


@dataclass(frozen=True)
class Column:
    key: str  # the run field it sorts by (tracer/runs/run_fields.py); its title is the message runs.column.KEY
    cell: Callable[[RunRow], str]
    numeric: bool = False  # right-aligned
    label: str | None = None  # a heading of the run's own (a score's name), the same in every language

    def heading(self, lang: str = "en") -> str:
        return self.label if self.label is not None else say(f"runs.column.{self.key}", lang)

    @property
    def title(self) -> str:
        """The English heading (what a screen that says its own words asks for)."""
        return self.heading("en")


def score_cell(value: float | str | None) -> str:
    if value is None:
        return "—"
    return f"{value:g}" if isinstance(value, float) else value


def score_names(rows: Iterable[RunRow]) -> list[str]:
    """Every score name the rows carry, in order of name: one column each."""
    return sorted({name for row in rows for name in row.scores})


def _score_column(name: str) -> Column:
    return Column(f"score.{name}", lambda row: score_cell(row.scores.get(name)), numeric=True, label=name)


def run_columns(base: str | None = None, scores: Sequence[str] = ()) -> list[Column]:
    """The run table's columns; paths are shown relative to `base` (default: the current folder); one
    column per score name in `scores`, before the note."""
    columns = [
        Column("path", lambda row: shown_path(row.path, base)),
        Column("name", lambda row: row.name),
        Column("outcome", lambda row: row.outcome),
        Column("iterations", lambda row: count(row.iterations), numeric=True),
        Column("model_calls", lambda row: count(row.model_calls), numeric=True),
        Column("tool_calls", lambda row: count(row.tool_calls), numeric=True),
        Column("errors", lambda row: count(row.errors), numeric=True),
        Column("tokens", lambda row: count(row.tokens, row.tokens_estimated), numeric=True),
        Column("cost", lambda row: dollars(row.cost, row.cost_estimated), numeric=True),
        Column("duration", lambda row: seconds(row.duration), numeric=True),
        Column("model", models_cell),
        Column("recorded", recorded_cell),
    ]
    return [*columns, *(_score_column(name) for name in scores), Column("detail", lambda row: row.detail)]


def screen_columns(base: str | None = None, scores: Sequence[str] = ()) -> list[Column]:
    """The columns for a terminal's width: the path moves to the end (the table shows the highlighted
    run's whole path under it), so the counts, tokens and cost fit in 120 columns."""
    columns = run_columns(base, scores)
    return [*columns[1:-1], columns[0], columns[-1]]


NARROW_FIRST = ("name", "outcome", "duration", "model")


def narrow_columns(columns: Sequence[Column]) -> list[Column]:
    """The screen's columns for a terminal narrower than 120: how long the run took and its model come
    right after its outcome (the counts, tokens and cost then run off the right edge, not those)."""
    first = [column for key in NARROW_FIRST for column in columns if column.key == key]
    return first + [column for column in columns if column not in first]


# (the message runs.stats.KEY heads it, its cell, right-aligned)
TOOL_COLUMNS: list[tuple[str, Callable[[ToolStats], str], bool]] = [
    ("tool", lambda s: s.tool, False),
    ("calls", lambda s: count(s.calls), True),
    ("errors", lambda s: count(s.errors), True),
    ("retries", lambda s: count(s.retries), True),
    ("runs", lambda s: count(s.runs), True),
    ("p50", lambda s: seconds(s.p50), True),
    ("p95", lambda s: seconds(s.p95), True),
]
MODEL_COLUMNS: list[tuple[str, Callable[[ModelStats], str], bool]] = [
    ("model", lambda s: s.model, False),
    ("calls", lambda s: count(s.calls), True),
    ("tokens", lambda s: count(s.tokens, s.estimated), True),
    ("cost", lambda s: dollars(s.cost, s.estimated), True),
    ("failures", lambda s: count(s.failures), True),
    ("fallbacks", lambda s: count(s.fallbacks), True),
    ("runs", lambda s: count(s.runs), True),
]


def model_score_columns(names: Sequence[str]) -> list[tuple[str, Callable[[ModelStats], str], bool]]:
    """`--by model`: one column per numeric score, its mean over the model's scored runs (headed `mean NAME`)."""
    return [(f"mean {name}", _mean_cell(name), True) for name in names]


def _mean_cell(name: str) -> Callable[[ModelStats], str]:
    return lambda s: score_cell(s.scores.get(name))
