"""`loopscope runs` in a terminal: the runs table, with each run opened in the debugger over it (q comes back)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from textual import work
from textual.app import App
from textual.binding import Binding

from ..debug.options import DEFAULT_OPTIONS, DebuggerOptions
from ..debug.session import DebugSession, build_session
from ..i18n import Message, verbatim
from ..report.diff import diff_traces, render_diff
from ..runs.columns import Column
from ..runs.listing import RunList
from ..runs.options import RunsOptions
from ..runs.regression_tests import DEFAULT_FOLDER, CannotWriteTest, RegressionTest, write_regression_test
from ..runs.run_fields import sort_key
from ..runs.run_row import RunRow
from ..trace.format_error import TraceFormatError
from ..trace.literal_text import scrub
from .keymap import keymap_from_environment
from .messages import Fail, OpenSession
from .screens.diff_screen import DiffScreen
from .screens.main_screen import DebuggerScreen
from .screens.runs_screen import DiffRuns, OpenRun, RunsScreen, WriteTests, relabel


class RunsApp(App[int]):
    """The runs table is the first screen; a run opens as a debugger screen over it. The debugger's
    flows send OpenSession (a fork) and Fail (an unreadable run) up to here, as to DebuggerApp."""

    CSS_PATH = ["debugger.tcss", "scroll_target.tcss", "runs.tcss"]
    TITLE = "loopscope runs"
    BINDINGS = [Binding("q", "back_to_runs", "back to the runs table", id="runs-back")]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        table: RunsScreen,
        options: DebuggerOptions = DEFAULT_OPTIONS,
        keymap: dict[str, str] | None = None,
        tests_dir: Path = Path(DEFAULT_FOLDER),
    ) -> None:
        super().__init__()
        self.table, self.options = table, options  # a run opened from the table is shown with these
        self.tests_dir = tests_dir  # where `t` writes the marked runs' regression tests
        self.lang = lang = options.lang or "en"
        self.keymap = dict(keymap or {})  # binding id -> keys (the help screens show these)
        self.opened: list[DebugSession] = []  # closed at exit, as DebuggerApp closes its own
        relabel(self, lang)

    def get_default_screen(self) -> RunsScreen:
        return self.table

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)

    def on_open_run(self, message: OpenRun) -> None:
        try:
            session = build_session(message.path, options=self.options)
        except (TraceFormatError, OSError) as error:  # changed since it was listed
            self.table.say(Message("runs_table.cannot_open", {"problem": str(error)}))
            return
        self.opened.append(session)
        self.push_screen(DebuggerScreen(session, self.lang, Message("debugger.from_runs", {"shown": message.shown})))

    def on_diff_runs(self, message: DiffRuns) -> None:
        names = message.shown
        try:
            diff = diff_traces(message.a, message.b)
        except (TraceFormatError, OSError) as error:
            self.table.say(Message("runs_table.cannot_diff", {"problem": str(error)}))
            return
        self.push_screen(DiffScreen(f"A = {names[0]} · B = {names[1]}", render_diff(diff, names)))
        self.table.say(
            Message("runs_table.same") if diff.same else Message("runs_table.parted", {"at": diff.parted_at})
        )

    def on_write_tests(self, message: WriteTests) -> None:
        self._write_tests(message.paths, self.tests_dir)

    @work(thread=True, group="runs-tests")
    def _write_tests(self, paths: list[str], folder: Path) -> None:
        """As `loopscope tests add PATH… --dir FOLDER` does, for the agents the user trusts
        only (a run in a listed folder was not named by them, its header may name anything)."""
        written: list[RegressionTest] = []
        refused: list[tuple[str, Message]] = []
        for path in paths:
            try:
                written.append(write_regression_test(Path(path), folder, trusted=self.options.agents))
            except CannotWriteTest as error:
                refused.append((self.table.path_shown(path), error.said))
        self.call_from_thread(self.table.say, tests_said(written, refused, folder))

    def on_open_session(self, message: OpenSession) -> None:
        self.call_later(self._switch_to, message.session, message.said, message.tab)

    async def _switch_to(self, session: DebugSession, said: Message, tab: str | None) -> None:
        """A fork (or a tutorial) opened from the debugger replaces the run shown over the table."""
        self.opened.append(session)
        screen = DebuggerScreen(session, self.lang, said)
        if isinstance(self.screen, DebuggerScreen):
            self.screen.stop_reenacting()
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)
        if tab is not None:
            screen.action_tab(tab)

    def on_fail(self, message: Fail) -> None:
        """The run cannot be shown after all: back to the table, which says why."""
        self.action_back_to_runs()
        self.table.say(verbatim(message.text))

    def action_back_to_runs(self) -> None:
        if isinstance(self.screen, DebuggerScreen):
            self.screen.stop_reenacting()
            self.pop_screen()
        elif self.screen is self.table:
            self.exit(0)

    def close_opened(self) -> None:
        for session in self.opened:
            session.store.close()


def tests_said(written: list[RegressionTest], refused: list[tuple[str, Message]], folder: Path) -> Message:
    """One line: the tests written and how to run them, then the first run refused and why (and how many more)."""
    said = None
    if written:
        files = ", ".join(test.test_file.name for test in written)
        said = Message("runs_table.tests_wrote", {"files": files, "folder": str(folder)})
    if refused:
        run, why = refused[0]
        first = Message("runs_table.tests_refused", {"run": run, "why": why})
        said = said.then(first) if said else first
        if len(refused) > 1:
            said = said.then(Message("runs_table.tests_more_refused", {"count": len(refused) - 1}))
    return said or verbatim("")


def open_runs(listing: RunList, rows: Sequence[RunRow], options: RunsOptions, columns: Sequence[Column]) -> int:
    """Show the table until the user quits; returns the exit code. `rows` are the ones --where kept, in
    --sort's order (options.order: run field, descending); F can widen the view to every run listed."""
    order, lang = options.order, options.lang
    try:
        keymap = keymap_from_environment()
    except ValueError as error:
        print(scrub(f"loopscope: LOOPSCOPE_KEYMAP: {error}"), file=sys.stderr)
        return 2
    every = sorted(listing.rows, key=sort_key(*order)) if order else listing.rows
    table = RunsScreen(every, columns, listing.shapes, lang)
    table.shown, table.condition = list(rows), options.where or ""
    if order:
        table.sort_by, table.descending = order
    app = RunsApp(table, options.debugger(), keymap, Path(options.tests_dir))
    try:
        code = app.run()
    finally:
        app.close_opened()
    return code or 0
