"""The runs table widget: Textual's DataTable whose enter says what it does (opens the run)."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable


class RunsTable(DataTable[Text]):
    """One row per run, keyed by its path. enter selects the row: the screen opens that run."""

    BINDINGS = [Binding("enter", "select_cursor", "open in the debugger", id="runs-table-open")]
