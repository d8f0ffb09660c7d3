"""What the user names (--prices FILE, $LOOPSCOPE_PRICES, $LOOPSCOPE_CATALOGUE) is read by the command and
handed down as a value: `debug` and `runs` price with the given file, and nothing is left in the environment."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.helpers.paths import ROSE
from tests.helpers.pilot_helpers import settle
from tracer.cli import main
from tracer.report.cost.prices import ENV_PRICES
from tracer.runs.catalogue import ENV_CATALOGUE, chosen_location, default_location
from tracer.tui.app import DebuggerApp
from tracer.tui.runs_app import RunsApp
from tracer.tui.screens.main_screen import DebuggerScreen

# The rose run's model is the scripted one: a dollar a prompt token makes its cost its prompt tokens.
DOLLAR_A_TOKEN = '[models."scripted"]\ninput = 1000000.0\noutput = 0.0\n'


@pytest.fixture
def prices_file(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_PRICES, raising=False)  # only --prices names a file here
    path = tmp_path / "prices.toml"
    path.write_text(DOLLAR_A_TOKEN, encoding="utf-8")
    return path


@pytest.fixture
def in_a_terminal(monkeypatch):
    monkeypatch.setattr("tracer.cli.debug.can_show_debugger", lambda: True)
    monkeypatch.setattr("tracer.cli.runs.can_show_debugger", lambda: True)


def _run_cost(session) -> tuple[int, float | None]:
    _iteration, run = session.costs.totals(1)
    return run.prompt_tokens, run.dollars


def test_debug_prices_the_debuggers_figures_with_the_given_file(prices_file, in_a_terminal, monkeypatch):
    opened = []

    def run(app: DebuggerApp) -> int:  # stands in for the window: what its status line would bill
        opened.append(_run_cost(app.session))
        return 0

    monkeypatch.setattr(DebuggerApp, "run", run)
    assert main(["debug", str(ROSE), "--prices", str(prices_file)]) == 0
    tokens, dollars = opened[0]
    assert tokens > 0 and dollars == pytest.approx(tokens)  # the file's price, not gpt-4o-mini's
    assert ENV_PRICES not in os.environ  # handed down, not left in the environment
    assert main(["debug", str(ROSE)]) == 0
    assert opened[1][1] < 0.01  # without it, the shipped table's (a fraction of a cent)


def test_runs_prints_costs_from_the_given_file(prices_file, tmp_path, capsys):
    folder = tmp_path / "traces"
    folder.mkdir()
    shutil.copy(ROSE, folder / "rose.jsonl")
    catalogue = str(tmp_path / "catalogue.sqlite")
    assert main(["runs", str(folder), "--json", "--catalogue", catalogue, "--prices", str(prices_file)]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["cost"] == pytest.approx(row["prompt_tokens"])
    assert main(["runs", str(folder), "--json", "--catalogue", catalogue]) == 0  # the same catalogue, no file
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["cost"] < 0.01


async def test_a_run_opened_from_the_runs_table_is_priced_with_the_given_file(
    prices_file, tmp_path, in_a_terminal, monkeypatch
):
    folder = tmp_path / "traces"
    folder.mkdir()
    shutil.copy(ROSE, folder / "rose.jsonl")
    apps = []
    monkeypatch.setattr(RunsApp, "run", lambda app: apps.append(app) or 0)  # the command builds the table...
    argv = ["runs", str(folder), "--catalogue", str(tmp_path / "c.sqlite"), "--prices", str(prices_file)]
    assert main(argv) == 0
    assert ENV_PRICES not in os.environ
    app = apps[0]
    async with app.run_test(size=(120, 40)) as pilot:  # ...and the user opens the run from it
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, DebuggerScreen))
        tokens, dollars = _run_cost(app.screen.session)
        assert tokens > 0 and dollars == pytest.approx(tokens)
    app.close_opened()


def test_the_users_catalogue_variable_is_read_by_the_command(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    named = tmp_path / "mine.sqlite"
    monkeypatch.setenv(ENV_CATALOGUE, str(named))
    assert chosen_location(None) == (default_location(), True)  # below cli/, only what is handed down counts
    folder = tmp_path / "traces"
    folder.mkdir()
    shutil.copy(ROSE, folder / "rose.jsonl")
    assert main(["runs", str(folder), "--json"]) == 0
    assert named.is_file() and not default_location().exists()  # the command read the variable
    capsys.readouterr()
