"""`t` in the runs table writes regression tests for the marked runs, as `loopscope tests add` does: the written
pytest module passes on the unchanged agent; a run whose agent the user does not trust gets no test, and says why."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

from executor import ScriptedModel
from tests.helpers.pilot_helpers import settle
from tests.helpers.user_project import QUESTION, REPLIES, write_project
from tracer.cli import build_parser
from tracer.cli.runs import runs_options
from tracer.debug.options import DebuggerOptions
from tracer.runs.catalogue import Catalogue
from tracer.runs.columns import screen_columns
from tracer.runs.listing import list_runs
from tracer.trace.writer import TraceWriter
from tracer.tui.runs_app import RunsApp
from tracer.tui.screens.runs_screen import RunsScreen


def florist_project(folder: Path, monkeypatch) -> Path:
    """florist.py, a pyproject.toml that trusts it, and two recorded runs of it under runs/."""
    write_project(folder)
    (folder / "pyproject.toml").write_text('[tool.loopscope]\nagents = ["florist:build"]\n', encoding="utf-8")
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("florist", None)  # another test's florist.py may be imported already
    florist = importlib.import_module("florist")
    runs = folder / "runs"
    runs.mkdir()
    for name in ("roses monday", "roses tuesday"):
        with TraceWriter(runs / f"{name}.jsonl", agent="florist:build") as writer:
            florist.build(ScriptedModel(REPLIES)).invoke({"input": QUESTION}, [writer])
    return runs


def runs_app(runs: Path) -> RunsApp:
    listing = list_runs([runs], Catalogue.in_memory())
    return RunsApp(RunsScreen(listing.rows, screen_columns(str(runs)), listing.shapes), DebuggerOptions())


def status(app: RunsApp) -> str:
    return str(app.table.status.render())


async def test_two_marked_runs_become_tests_that_pytest_passes(tmp_path, monkeypatch):
    runs = florist_project(tmp_path, monkeypatch)
    app = runs_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("space", "down", "space", "t")
        await settle(pilot, lambda: "wrote" in status(app))
        said = status(app)
    folder = tmp_path / "tests" / "regressions"
    modules = sorted(path.name for path in folder.glob("test_regression_*.py"))
    assert modules == ["test_regression_roses_monday.py", "test_regression_roses_tuesday.py"]
    assert (folder / "roses_monday.jsonl").is_file() and (folder / "roses_tuesday.jsonl").is_file()
    assert "test_regression_roses_monday.py, test_regression_roses_tuesday.py" in said
    assert "pytest tests/regressions" in said
    passed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly"]
        + ["tests/regressions"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "2 passed" in passed.stdout


async def test_a_run_of_an_agent_not_trusted_gets_no_test_and_the_line_says_why(tmp_path, monkeypatch):
    runs = florist_project(tmp_path, monkeypatch)
    lines = (runs / "roses monday.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {"agent": "shop:build"}  # the header names an agent nobody trusted
    (runs / "roses monday.jsonl").write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    app = runs_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")  # nothing marked: the run under the cursor
        await settle(pilot, lambda: "no test for" in status(app))
        said = status(app)
    assert "roses monday.jsonl" in said and "shop:build is not one you trust" in said
    assert not (tmp_path / "tests").exists()


async def test_a_folder_that_cannot_be_written_is_said_not_raised(tmp_path, monkeypatch):
    runs = florist_project(tmp_path, monkeypatch)
    (tmp_path / "tests").write_text("a file where the tests folder would go", "utf-8")
    app = runs_app(runs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot, lambda: "no test for" in status(app))
        assert "cannot write the test" in status(app) and app.is_running


async def test_runs_tests_dir_names_where_t_writes(tmp_path, monkeypatch):
    runs = florist_project(tmp_path, monkeypatch)
    argv = ["runs", str(runs), "--tests-dir", "checks/from_prod"]
    options = runs_options(build_parser(argv).parse_args(argv))
    assert options.tests_dir == "checks/from_prod"
    listing = list_runs([runs], Catalogue.in_memory())
    table = RunsScreen(listing.rows, screen_columns(str(runs)), listing.shapes)
    app = RunsApp(table, options.debugger(), tests_dir=Path(options.tests_dir))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot, lambda: "wrote" in status(app))
        assert "pytest checks/from_prod" in status(app)
    assert [p.name for p in (tmp_path / "checks" / "from_prod").glob("test_regression_*.py")] == [
        "test_regression_roses_monday.py"
    ]
    assert not (tmp_path / "tests").exists()  # not the default folder as well
