"""The runs table and the --by tables as plain text for a pipe or a file: padded columns, cells shown literally."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.cells import cell_len

from ..i18n import say
from ..runs.columns import Column
from ..runs.run_row import RunRow
from ..trace.literal_text import scrub

Item = TypeVar("Item")


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * max(0, width - cell_len(text))
    return gap + text if right else text + gap


def text_table(titles: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> list[str]:
    """Lines of a table: titles, then rows, columns two spaces apart; the last column is not padded."""
    cells = [[scrub(cell).replace("\n", " ") for cell in row] for row in rows]
    widths = [max([cell_len(title), *(cell_len(row[at]) for row in cells)]) for at, title in enumerate(titles)]
    lines = []
    for row in [list(titles), *cells]:
        padded = [_pad(cell, widths[at], numeric[at]) for at, cell in enumerate(row)]
        padded[-1] = row[-1] if not numeric[-1] else padded[-1]
        lines.append("  ".join(padded).rstrip())
    return lines


def runs_lines(rows: Sequence[RunRow], columns: Sequence[Column], lang: str = "en") -> list[str]:
    return text_table(
        [column.heading(lang) for column in columns],
        [[column.cell(row) for column in columns] for row in rows],
        [column.numeric for column in columns],
    )


def stats_lines(
    items: Sequence[Item], columns: Sequence[tuple[str, Callable[[Item], str], bool]], lang: str = "en"
) -> list[str]:
    """A --by table; each column's title is the message runs.stats.KEY (a score's `mean NAME` as it is)."""
    return text_table(
        [key if key.startswith("mean ") else say(f"runs.stats.{key}", lang) for key, _cell, _numeric in columns],
        [[cell(item) for _title, cell, _numeric in columns] for item in items],
        [numeric for _title, _cell, numeric in columns],
    )
