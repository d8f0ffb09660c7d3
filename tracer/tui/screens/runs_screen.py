"""The runs table: one row per run, sortable, searchable and filterable; enter opens a run, D diffs two, t writes tests."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.events import Resize
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...i18n import Message as Said
from ...i18n import say, templates
from ...report.text.literal import literal
from ...runs.columns import Column, narrow_columns, shown_path
from ...runs.run_fields import sort_key
from ...runs.run_row import RunRow
from ...runs.where import ConditionError, RunCondition, Shapes
from ..chrome import binding_words
from ..panes.keys_footer import KeysFooter
from ..panes.runs_table import NAME_WIDTH, NARROW_NAME_WIDTH, RunsTable, name_cell
from .ask_screen import AskScreen
from .runs_help import RunsHelpScreen

OUTCOME_STYLES = {
    "finished": "green",
    "error": "bold red",
    "iteration_limit": "yellow",
    "time_limit": "yellow",
    "interrupted": "magenta",
    "truncated": "magenta",
    "unreadable": "bold red",
}
MARK = "●"
WIDE = 120  # a terminal this wide shows every column up to the model in the listing's order


class OpenRun(Message):
    """Open the run at `path` in the debugger (the app does); `shown` is the path as the table shows it."""

    def __init__(self, path: str, shown: str) -> None:
        super().__init__()
        self.path, self.shown = path, shown


class DiffRuns(Message):
    """Diff the runs at paths `a` and `b` (the app shows it); `shown` are the paths as the table shows them."""

    def __init__(self, a: str, b: str, shown: tuple[str, str]) -> None:
        super().__init__()
        self.a, self.b, self.shown = a, b, shown


class WriteTests(Message):
    """Write a regression test for each run at `paths` (the app does: it knows which agents are trusted)."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__()
        self.paths = paths


class RunsScreen(Screen[None]):
    """Rows are the listing's, in `order`; `condition` (F) and `search` (/) narrow and find among them."""

    BINDINGS = [
        Binding("space", "mark", "mark", id="runs-mark"),
        Binding("D", "diff", "diff the last two marked", id="runs-diff"),
        Binding("t", "tests", "write regression tests", id="runs-tests"),
        Binding("F", "filter", "filter", id="runs-filter"),
        Binding("escape", "clear_filter", "clear the filter", show=False, id="runs-clear-filter"),
        Binding("slash", "search", "search", id="runs-search"),
        Binding("n", "next_match(1)", "next match", show=False, id="runs-next-match"),
        Binding("N", "next_match(-1)", "previous match", show=False, id="runs-previous-match"),
        Binding("s", "sort", "sort by the next column", id="runs-sort"),
        Binding("S", "reverse", "reverse the order", show=False, id="runs-reverse"),
        Binding("question_mark", "help", "help", id="runs-help"),
        Binding("q", "app.quit", "quit", id="runs-quit"),
    ]

    def __init__(self, rows: Sequence[RunRow], columns: Sequence[Column], shapes: Shapes, lang: str = "en") -> None:
        super().__init__()
        self.rows, self.columns, self.shapes, self.lang = list(rows), list(columns), shapes, lang
        self.listed_columns = list(columns)  # in the listing's order; a narrow terminal moves time and model up
        self.narrow = False
        self.shown: list[RunRow] = list(rows)
        self.sort_by: str | None = None
        self.descending = False
        self.condition: str = ""
        self.search_text = ""
        self.marked: list[str] = []
        self._made: dict[str, list[Text]] = {}  # path -> its cells
        self._by_path = {row.path: row for row in rows}
        self.message = ""
        self.table = RunsTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        self.detail = Static(id="runs-detail")
        self.status = Static(id="runs-status")
        relabel(self, lang)
        relabel(self.table, lang)

    def compose(self) -> ComposeResult:
        yield self.table
        yield self.detail
        yield self.status
        yield KeysFooter()

    def on_mount(self) -> None:
        self._lay_out(self.app.size.width < WIDE)
        self.table.focus()

    def on_resize(self, event: Resize) -> None:
        if (event.size.width < WIDE) != self.narrow:
            self._lay_out(event.size.width < WIDE, keep=getattr(self.current(), "path", None))

    def _lay_out(self, narrow: bool, keep: str | None = None) -> None:
        """The columns for the terminal's width (time and model always on screen), then the rows."""
        self.narrow, self._made = narrow, {}
        self.columns = narrow_columns(self.listed_columns) if narrow else list(self.listed_columns)
        self.table.clear(columns=True)
        for column in self.columns:
            said = f"runs_table.column.{column.key}"
            words = say(said, self.lang) if said in templates() else column.title
            title = Text(words, justify="right" if column.numeric else "left")
            self.table.add_column(title, key=column.key)
        self._fill(keep)

    # -- drawing ------------------------------------------------------------------------------------
    def _cells(self, row: RunRow) -> list[Text]:
        """The row's cells, made once (sorting and filtering re-add rows: their text is not made again)."""
        cells = self._made.get(row.path)
        if cells is None:
            cells = self._made[row.path] = [self._cell(row, column) for column in self.columns]
        return cells

    def _cell(self, row: RunRow, column: Column) -> Text:
        if column.key == "name":
            shown = name_cell(row, NARROW_NAME_WIDTH if self.narrow else NAME_WIDTH, self.lang)
        else:
            shown = column.cell(row)
        text = literal(shown, OUTCOME_STYLES.get(row.outcome, "") if column.key == "outcome" else "")
        if column.numeric:
            text.justify = "right"
        if column is self.columns[0] and row.path in self.marked:
            text = Text(f"{MARK} ", style="bold cyan") + text
        return text

    def _fill(self, keep: str | None = None) -> None:
        """Show `self.shown`, the cursor on the row of path `keep` (or the first row)."""
        self.table.clear()
        for row in self.shown:
            self.table.add_row(*self._cells(row), key=row.path)
        if keep is not None and keep in self._positions():
            self.table.move_cursor(row=self._positions()[keep], animate=False)
        self._show_status()

    def _remark(self, path: str) -> None:
        """Redraw the first cell of the run at `path` (marked or not)."""
        row = self._by_path.get(path)
        if row is None:
            return
        first = self._cell(row, self.columns[0])
        self._cells(row)[0] = first
        if path in self._positions():
            self.table.update_cell(path, self.columns[0].key, first, update_width=True)

    def path_shown(self, path: str) -> str:
        """A path as the path column shows it (below the folder listed)."""
        column = next((c for c in self.columns if c.key == "path"), None)
        row = self._by_path.get(path)
        return column.cell(row) if column and row else shown_path(path)

    def _positions(self) -> dict[str, int]:
        return {row.path: at for at, row in enumerate(self.shown)}

    def current(self) -> RunRow | None:
        if not self.shown or self.table.cursor_row >= len(self.shown):
            return None
        return self.shown[self.table.cursor_row]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_run()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        key = str(event.column_key.value)
        self._sorted(key, not self.descending if key == self.sort_by else False)

    def _show_detail(self) -> None:
        row = self.current()
        if row is None:
            self.detail.update(literal(say("runs_table.no_match", self.lang)))
            return
        text = literal(self.path_shown(row.path), "bold")
        if row.parent is not None:  # the name cell says only that it is a fork
            key = "runs_table.fork_of" if row.fork_at is not None else "runs_table.fork_of_somewhere"
            parent = say(key, self.lang, parent=self.path_shown(row.parent), at=row.fork_at)
            text.append_text(literal(f" · {parent}", "cyan"))
        if row.detail:
            text.append_text(literal(f" · {row.detail}", OUTCOME_STYLES.get(row.outcome, "")))
        self.detail.update(text)

    def _show_status(self) -> None:
        parts = [self._words(Said("runs_table.runs", {"count": f"{len(self.rows):,}"}))]
        if len(self.shown) != len(self.rows):
            parts.append(self._words(Said("runs_table.shown", {"count": f"{len(self.shown):,}"})))
        if self.condition:
            parts.append(self._words(Said("runs_table.filter", {"condition": self.condition})))
        if self.sort_by:
            arrow = "↓" if self.descending else "↑"
            parts.append(self._words(Said("runs_table.sorted_by", {"column": self.sort_by, "arrow": arrow})))
        if self.marked:
            parts.append(self._words(Said("runs_table.marked", {"count": len(self.marked)})))
        text = Text(" " + " · ".join(parts) + " ", style="bold reverse")
        if self.message:
            text.append_text(literal(" " + self.message))
        self.status.update(text)
        self._show_detail()

    def say(self, said: Said) -> None:
        self.message = said.text(self.lang)
        self._show_status()

    def _words(self, said: Said) -> str:
        return said.text(self.lang)

    # -- keys ---------------------------------------------------------------------------------------
    def action_open_run(self) -> None:
        row = self.current()
        if row is None:
            return
        if not row.readable:
            self.say(Said("runs_table.cannot_open", {"problem": row.detail}))
            return
        self.post_message(OpenRun(row.path, self.path_shown(row.path)))

    def action_mark(self) -> None:
        row = self.current()
        if row is None:
            return
        before = list(self.marked)
        if row.path in self.marked:
            self.marked.remove(row.path)
        else:
            self.marked = [*self.marked, row.path]
        for path in set(before) ^ set(self.marked):
            self._remark(path)
        self._show_status()

    def action_diff(self) -> None:
        row = self.current()
        pair = self.marked[-2:]  # the two marked last
        if len(pair) == 1 and row is not None and row.path != pair[0]:
            pair.append(row.path)  # one mark: diff it with the run under the cursor
        if len(pair) != 2:
            self.say(Said("runs_table.mark_two"))
            return
        self.post_message(DiffRuns(pair[0], pair[1], (self.path_shown(pair[0]), self.path_shown(pair[1]))))

    def action_tests(self) -> None:
        """A regression test for each marked run (the run under the cursor when none is marked)."""
        row = self.current()
        paths = list(self.marked) or ([row.path] if row is not None else [])
        if not paths:
            return
        self.say(Said("runs_table.tests_writing", {"count": len(paths)}))
        self.post_message(WriteTests(paths))

    def action_sort(self) -> None:
        keys = [column.key for column in self.columns]
        following = keys[(keys.index(self.sort_by) + 1) % len(keys)] if self.sort_by in keys else keys[0]
        self._sorted(following, False)

    def action_reverse(self) -> None:
        self._sorted(self.sort_by or "path", not self.descending)

    def _sorted(self, key: str, descending: bool) -> None:
        row = self.current()
        self.sort_by, self.descending = key, descending
        if key != "detail":
            self.rows = sorted(self.rows, key=sort_key(key, descending))
            self.shown = sorted(self.shown, key=sort_key(key, descending))
        # The table's own sort moves rows without measuring their cells again (adding 2,000 rows does).
        path_at = [c.key for c in self.columns].index("path")
        rank = {self._cells(r)[path_at].plain: at for at, r in enumerate(self.shown)}
        self.table.sort("path", key=lambda cell: rank.get(cell.plain, len(rank)))
        if row is not None:
            self.table.move_cursor(row=self._positions()[row.path], animate=False)
        self._show_status()

    def action_search(self) -> None:
        def found(answer: str | None) -> None:
            if answer is not None:
                self.search_text = answer
                self.action_next_match(1, include_current=True)

        hint = say("runs_table.search_hint", self.lang)
        self.app.push_screen(AskScreen(say("runs_table.search_title", self.lang), hint, value=self.search_text), found)

    def action_next_match(self, direction: int, include_current: bool = False) -> None:
        if not self.search_text or not self.shown:
            self.say(Said("runs_table.nothing_to_search"))
            return
        wanted = self.search_text.lower()
        start = self.table.cursor_row
        steps = range(0 if include_current else 1, len(self.shown) + 1)
        for step in steps:
            at = (start + direction * step) % len(self.shown)
            if any(wanted in column.cell(self.shown[at]).lower() for column in self.columns):
                self.table.move_cursor(row=at, animate=False)
                self.say(Said("runs_table.found", {"text": repr(self.search_text), "row": at + 1}))
                return
        self.say(Said("runs_table.not_found", {"text": repr(self.search_text)}))

    def action_filter(self) -> None:
        def check(answer: str) -> str | None:
            if not answer:
                return None
            try:
                RunCondition(answer)
            except ConditionError as error:
                return str(error)
            return None

        hint = say("runs_table.filter_hint", self.lang)
        self.app.push_screen(
            AskScreen(say("runs_table.filter_title", self.lang), hint, check, value=self.condition), self._filtered
        )

    def _filtered(self, answer: str | None) -> None:
        if answer is None or (answer == self.condition and answer):
            return  # escape, or enter on the filter as it was: nothing to do again
        if not answer:
            self.action_clear_filter()
            return
        condition = RunCondition(answer)
        # The catalogue is read here (its connection is this thread's); the events, in a worker.
        known = self.shapes(self.rows) if condition.event_fields and not condition.reads_traces else {}
        self.say(Said("runs_table.filtering"))
        self._select(condition, known)

    def action_clear_filter(self) -> None:
        """Every run again (escape on the table, or enter on an emptied filter)."""
        if not self.condition:
            return
        self.workers.cancel_group(self, "runs-filter")
        keep = getattr(self.current(), "path", None)
        self.condition, self.shown, self.message = "", list(self.rows), ""
        self._fill(keep)

    @work(thread=True, exclusive=True, group="runs-filter")
    def _select(self, condition: RunCondition, known: dict) -> None:
        kept = condition.select(self.rows, lambda _rows: known)
        self.app.call_from_thread(self._show_selected, condition.text, kept)

    def _show_selected(self, text: str, kept: list[RunRow]) -> None:
        self.condition, self.shown = text, kept
        self.message = ""
        self._fill()

    def action_help(self) -> None:
        self.app.push_screen(RunsHelpScreen([*RunsTable.BINDINGS, *self.BINDINGS], self.lang))


def relabel(owner: DOMNode, lang: str) -> None:
    """Give `owner`'s bindings their descriptions in `lang` (the footer and the help show them)."""
    if lang == "en":
        return
    for key, bindings in owner._bindings.key_to_bindings.items():
        owner._bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=binding_words(b, lang)) for b in bindings
        ]
