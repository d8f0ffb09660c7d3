"""The runs table widget (Textual's DataTable whose enter opens the run) and how its name cell is drawn."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from ...i18n import say
from ...runs.run_row import RunRow

# The name column's most cells: an imported run's name can be 50 characters and more, which pushed the
# time and model off a 120-column screen. The whole name is in the line under the table.
NAME_WIDTH, NARROW_NAME_WIDTH = 28, 20
LEAST_NAME = 8  # cells of the name a fork's mark leaves it


class RunsTable(DataTable[Text]):
    """One row per run, keyed by its path. enter selects the row: the screen opens that run."""

    BINDINGS = [Binding("enter", "select_cursor", "open in the debugger", id="runs-table-open")]


def name_cell(row: RunRow, width: int, lang: str = "en") -> str:
    """The run's name in at most `width` cells (about: a fork's mark keeps LEAST_NAME of its name): a long
    name loses its middle (both ends tell runs apart: a module and its agent, a prefix and an id), and a
    fork says it is one, and at which event (a run and its forks share their agent's name)."""
    if row.parent is None:
        return cut_middle(row.name, width)
    if row.fork_at is None:
        return cut_middle(row.name, width - 2) + " ⑂"
    mark = " " + say("runs_table.fork_mark", lang, at=row.fork_at)
    if cell_len(row.name + mark) > width:  # the short mark, so that more of the name shows
        mark = " " + say("runs_table.fork_mark_short", lang, at=row.fork_at)
    return cut_middle(row.name, max(width - cell_len(mark), LEAST_NAME)) + mark


def cut_middle(text: str, width: int) -> str:
    """`text` in at most `width` cells, an ellipsis for its middle when it is longer."""
    if cell_len(text) <= width:
        return text
    room = max(width - 1, 0)
    head = _fitting(text, (room + 1) // 2)
    tail = _fitting(text[::-1], room - cell_len(head))[::-1]
    return head + "…" + tail


def _fitting(text: str, width: int) -> str:
    """The longest start of `text` in `width` cells (a wide character that would straddle is left out)."""
    used = 0
    for at, char in enumerate(text):
        used += cell_len(char)
        if used > width:
            return text[:at]
    return text
