"""The runs table at 120x40 and 80x24: a long name is capped so time and model stay on screen, a fork says it is
one, and the filter box is natural to edit and to clear (typing replaces, an emptied field or escape clears)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from tests.helpers.pilot_helpers import settle
from tracer.debug.options import DebuggerOptions
from tracer.runs.catalogue import Catalogue
from tracer.runs.columns import screen_columns
from tracer.runs.listing import list_runs
from tracer.tui.panes.runs_table import cut_middle
from tracer.tui.runs_app import RunsApp
from tracer.tui.screens.runs_screen import RunsScreen

LONG = "langgraph.prebuilt.chat_agent_executor:create_react_agent.invoke-trace-692ff896065c"
ROSE = FIXTURES / "rose_pricing.jsonl"


def with_header(source: Path, target: Path, **fields) -> Path:
    lines = source.read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | fields
    target.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    return target


@pytest.fixture
def folder(tmp_path) -> Path:
    """Four runs: the rose run, a fork of it at event 12, a run with a long imported name, and another fixture."""
    runs = tmp_path / "runs"
    runs.mkdir()
    parent = Path(shutil.copy(ROSE, runs / "a_rose.jsonl"))
    fork = {"reply": "Thought: skip the search\nFinal Answer: 3 yuan"}
    with_header(ROSE, runs / "b_fork.jsonl", parent=str(parent), parent_run_id="rose-pricing", fork_at=12, fork=fork)
    with_header(ROSE, runs / "c_long.jsonl", scenario=LONG)
    shutil.copy(FIXTURES / "tool_error_handled.jsonl", runs / "d_tool_error.jsonl")
    return runs


def app_for(runs: Path) -> RunsApp:
    listing = list_runs([runs], Catalogue.in_memory())
    return RunsApp(RunsScreen(listing.rows, screen_columns(str(runs)), listing.shapes), DebuggerOptions())


def spans(app: RunsApp) -> dict[str, tuple[int, int]]:
    """Each column's first and last screen column (x) as the table lays them out."""
    table, x, found = app.table.table, 0, {}
    for column in table.columns.values():
        width = column.get_render_width(table)
        found[str(column.key.value)] = (x, x + width - 1)
        x += width
    return found


def names(app: RunsApp) -> dict[str, str]:
    """The name cell of each run, by its file's name."""
    table = app.table.table
    return {Path(row.path).name: table.get_row_at(at)[0].plain for at, row in enumerate(app.table.shown)}


def drawn(app: RunsApp, y: int) -> str:
    return app.table.table.render_line(y).text


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_long_name_is_capped_so_time_and_model_stay_on_screen(folder, size):
    app = app_for(folder)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        width = size[0]
        placed = spans(app)
        assert placed["duration"][1] < width and placed["model"][0] + len("scripted") < width, placed
        head, rows = drawn(app, 0), [drawn(app, y) for y in range(1, 5)]
        assert "time" in head and "model" in head
        assert all("scripted" in row for row in rows if "tool_error" not in row)
        cell = names(app)["c_long.jsonl"]
        assert "…" in cell and cell.startswith("langgraph.") and cell.endswith("065c")
        assert len(cell) <= (28 if width >= 120 else 20)


async def test_at_80_columns_time_and_model_follow_the_outcome(folder):
    app = app_for(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        keys = [str(key.value) for key in app.table.table.columns]
        assert keys[:4] == ["name", "outcome", "duration", "model"]
        assert names(app)["b_fork.jsonl"] == "rose-pricing ⑂12"  # the short mark: the name stays whole
        await pilot.resize_terminal(120, 40)
        await settle(pilot, lambda: not app.table.narrow)
        keys = [str(key.value) for key in app.table.table.columns]
        assert keys[:4] == ["name", "outcome", "iterations", "model_calls"]
        assert "…" in names(app)["c_long.jsonl"] and len(names(app)["c_long.jsonl"]) == 28


async def test_a_fork_reads_as_a_fork_of_its_run_at_its_event(folder):
    app = app_for(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        cells = names(app)
        assert cells["a_rose.jsonl"] == "rose-pricing"
        assert cells["b_fork.jsonl"] == "rose-pricing ⑂ fork at 12"
        await pilot.press("down")
        line = str(app.table.detail.render())
        assert "⑂ fork of" in line and "a_rose.jsonl at event 12" in line


def test_a_cut_keeps_both_ends_and_counts_wide_characters():
    assert cut_middle("abcdefghij", 10) == "abcdefghij"
    assert cut_middle("abcdefghijkl", 7) == "abc…jkl"
    cut = cut_middle("玫瑰花的一般进货价格是多少", 9)
    assert cut.startswith("玫瑰") and cut.endswith("多少") and "…" in cut
    from rich.cells import cell_len

    assert cell_len(cut) <= 9


def status(app: RunsApp) -> str:
    return str(app.table.status.render())


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[char if char != " " else "space" for char in text])


async def test_the_filter_box_is_replaced_by_typing_and_cleared_by_emptying_it(folder):
    app = app_for(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await type_text(pilot, 'outcome == "error"')
        await pilot.press("enter")
        await settle(pilot, lambda: app.table.condition == 'outcome == "error"')
        assert len(app.table.shown) == 0 and "esc clears" in status(app)
        # F again: the filter is there to edit, and typing replaces it whole
        await pilot.press("F")
        await settle(pilot)
        await type_text(pilot, 'kind == "tool_error"')
        await pilot.press("enter")
        await settle(pilot, lambda: app.table.condition == 'kind == "tool_error"')
        assert [Path(row.path).name for row in app.table.shown] == ["d_tool_error.jsonl"]
        kept = len(app.table.shown)
        # enter on the filter as it was keeps it
        await pilot.press("F", "enter")
        await settle(pilot)
        assert app.table.condition == 'kind == "tool_error"' and len(app.table.shown) == kept
        # one backspace empties the field; enter on it shows every run
        await pilot.press("F", "backspace", "enter")
        await settle(pilot, lambda: app.table.condition == "")
        assert len(app.table.shown) == 4 and "filter:" not in status(app)


async def test_escape_on_the_table_clears_the_filter(folder):
    app = app_for(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await type_text(pilot, 'kind == "tool_error"')
        await pilot.press("enter")
        await settle(pilot, lambda: app.table.condition != "")
        assert len(app.table.shown) < 4
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.condition == "" and len(app.table.shown) == 4
