"""The runs table under Pilot: sort, search, filter, open a run in the debugger and come back, diff two."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES, holding_kind
from tests.helpers.pilot_helpers import settle
from tracer.debug.options import DebuggerOptions
from tracer.runs.catalogue import Catalogue
from tracer.runs.columns import screen_columns
from tracer.runs.listing import list_runs
from tracer.tui.runs_app import RunsApp
from tracer.tui.screens.diff_screen import DiffScreen
from tracer.tui.screens.main_screen import DebuggerScreen
from tracer.tui.screens.runs_screen import RunsScreen

SHIPPED = sorted(FIXTURES.glob("*.jsonl"))


@pytest.fixture
def traces(tmp_path) -> Path:
    folder = tmp_path / "traces"
    folder.mkdir()
    for source in SHIPPED:
        shutil.copy(source, folder / source.name)
    return folder


def app_for(folder: Path, lang: str = "en") -> RunsApp:
    listing = list_runs([folder], Catalogue.in_memory())
    return RunsApp(
        RunsScreen(listing.rows, screen_columns(str(folder)), listing.shapes, lang), DebuggerOptions(lang=lang)
    )


def shown_names(app: RunsApp) -> list[str]:
    return [row.name for row in app.table.shown]


def drawn_names(app: RunsApp) -> list[str]:
    """The name column, top to bottom, as the table draws it."""
    table = app.table.table
    return [table.get_row_at(at)[0].plain for at in range(table.row_count)]


def cursor_name(app: RunsApp) -> str:
    row = app.table.current()
    assert row is not None
    return row.name


def status(app: RunsApp) -> str:
    return str(app.table.status.render())


async def type_answer(pilot, text: str) -> None:
    for char in text:
        await pilot.press(char if char != " " else "space")
    await pilot.press("enter")


async def test_the_table_lists_every_run_and_says_how_many(traces):
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.table.table
        assert table.row_count == len(SHIPPED)
        titles = [str(column.label) for column in table.columns.values()]
        assert titles[:3] == ["name", "outcome", "iter"] and titles[-2:] == ["path", "note"]
        assert status(app).strip().startswith(f"{len(SHIPPED)} runs")
        assert "context_budget_summarize.jsonl" in str(app.table.detail.render())


async def test_sort_search_and_move_between_matches(traces):
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s")  # the first column: name
        assert app.table.sort_by == "name"
        assert drawn_names(app) == shown_names(app) == sorted(shown_names(app))
        await pilot.press("S")
        assert drawn_names(app) == sorted(shown_names(app), reverse=True)
        await pilot.press("slash")
        await type_answer(pilot, "tool-error")
        first = cursor_name(app)
        assert first.startswith("tool-error")
        await pilot.press("n")
        assert cursor_name(app).startswith("tool-error") and cursor_name(app) != first
        assert "found 'tool-error'" in status(app)


async def test_filter_narrows_to_a_condition_refuses_a_bad_one_and_clears(traces):
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await type_answer(pilot, "cots > 1")
        hint = str(app.screen.query_one("#ask-hint").render())
        assert "no run or event field is called 'cots'" in hint
        await pilot.press(*["backspace"] * 8)
        await type_answer(pilot, 'kind == "tool_error"')
        await settle(pilot, lambda: app.table.condition != "")
        erring = holding_kind(SHIPPED, "tool_error")
        assert {"parallel-tools", "tool-error-unhandled"} <= set(shown_names(app))
        assert sorted(shown_names(app)) == sorted(
            json.loads(path.read_text().splitlines()[0])["scenario"] for path in erring
        )
        assert 'filter: kind == "tool_error"' in status(app) and f"{len(erring)} shown" in status(app)
        await pilot.press("F")
        await pilot.press(*["backspace"] * 30, "enter")
        await settle(pilot)
        assert len(app.table.shown) == len(SHIPPED)


async def test_enter_opens_the_run_in_the_debugger_and_q_comes_back(traces):
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("down", "down")
        wanted = app.table.current()
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, DebuggerScreen))
        assert str(app.screen.session.store.path) == wanted.path
        await pilot.press("s")  # the debugger's own keys work: step
        await settle(pilot)
        assert app.screen.session.position == 1
        await pilot.press("q")
        await settle(pilot, lambda: app.screen is app.table)
        assert app.table.current() == wanted and app.is_running


async def test_two_marked_runs_are_diffed(traces):
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("space", "down", "space")
        assert "2 marked" in status(app)
        await pilot.press("D")
        await settle(pilot, lambda: isinstance(app.screen, DiffScreen))
        assert "A = context_budget_summarize.jsonl · B = context_budget_trim.jsonl" in app.screen.title_text
        assert "The runs part at" in app.screen.plain


async def test_an_unreadable_run_says_why_instead_of_opening(traces):
    (traces / "aaa_broken.jsonl").write_text("not a trace\n", "utf-8")
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert cursor_name(app) == "aaa_broken.jsonl"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.table and "cannot open it: line 1: not a loopscope trace" in status(app)


async def test_markup_and_escapes_in_a_trace_are_shown_literally(traces):
    lines = (FIXTURES / "rose_pricing.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {"scenario": "[bold red]boom[/] \x1b[2J"}
    (traces / "aaa_markup.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    app = app_for(traces)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        cell = app.table.table.get_cell_at((0, 0))
        assert cell.plain == "[bold red]boom[/] ␛[2J"


async def test_the_table_speaks_chinese(traces):
    app = app_for(traces, "zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        titles = [str(column.label) for column in app.table.table.columns.values()]
        assert titles[:2] == ["名称", "结果"] and titles[-2:] == ["路径", "说明"]
        assert status(app).strip().startswith(f"{len(SHIPPED)} 次运行")
        descriptions = {b.id: b.description for bs in app.table._bindings.key_to_bindings.values() for b in bs}
        assert descriptions["runs-filter"] == "筛选"
