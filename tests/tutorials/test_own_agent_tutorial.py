"""The own-agent tutorial: the learner's agent written to a folder, recorded, run live, its tool functions stepped into."""

from __future__ import annotations

import pytest

from tests.helpers.pilot_helpers import highlighted, pane_text, said, settle
from tracer.cli import main
from tracer.cli import tutorial as tutorial_command
from tracer.debug.own_agent_run import own_agent_run
from tracer.debug.step_into import LineStop
from tracer.replay.verify import compare_runs, verify_trace
from tracer.trace.transitions import Trace
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import opened_message, tutorial_session
from tutorials import get_scenario
from tutorials.own_agent import AGENT_SOURCE

LINES = AGENT_SOURCE.splitlines()


def line_of(text: str) -> int:
    return next(number for number, line in enumerate(LINES, 1) if text in line)


def test_the_run_is_the_fixtures_and_its_tools_are_the_learners_file(tmp_path):
    run = own_agent_run(tmp_path)
    pulled = []
    while (item := run.pull()) is not None:
        pulled.append(item[0])
    run.close()
    fixture = Trace.load(get_scenario("own-agent").fixture)
    assert compare_runs(fixture.events, pulled) is None  # the stops, anchored on the fixture, fit the live run
    starts = [e for e in pulled if e.kind == "tool_start"]
    assert [e.tool for e in starts] == ["quote", "stock"]
    assert {e.callee.file for e in starts} == {(tmp_path / "my_shop.py").resolve().as_posix()}
    assert (tmp_path / "run.jsonl").is_file() and (tmp_path / "live.jsonl").is_file()
    # What the learner can do next with it, as the epilogue says: the recording verifies against their agent.
    assert verify_trace(tmp_path / "run.jsonl", agents=[f"{tmp_path / 'my_shop.py'}:build"]).status == "ok"


def test_s_at_quotes_tool_start_steps_into_the_learners_lines(tmp_path):
    run = own_agent_run(tmp_path)
    while (item := run.pull()) is not None and item[0].kind != "tool_start":
        pass
    assert item is not None and run.why_not_step_into(item[0]) is None
    run.step_into(item[0], "step")
    stop = run.pull()
    assert isinstance(stop, LineStop) and stop.frame.line == line_of("each = PRICES.get")
    assert stop.frame.file.endswith("my_shop.py") and dict(stop.frame.locals)["quantity"] == "12"
    run.close()


@pytest.mark.slow  # drives the Textual debugger
async def test_the_tutorial_opens_live_and_s_steps_into_quote(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = tutorial_session("own-agent", 0, "en")
    assert session.store.live and "your agent: " in str(opened_message("own-agent", 0, session))
    app = DebuggerApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        assert "An agent of your own" in pane_text(app, "narration-text")
        await pilot.press("space")  # the next stop's event has not happened yet: space runs the live run to it
        await settle(pilot, lambda: not app.screen.busy and app.session.position == 4)
        assert said(app) == "tutorial stop at event 4"
        await pilot.press("s")
        await settle(pilot, lambda: not app.screen.busy)
        run = session.store.run
        await settle(pilot, lambda: run.line_stop is not None)
        path, line = highlighted(app)
        assert path.endswith("my_shop.py") and line == line_of("each = PRICES.get")
        assert "s steps into quote(), your function" in pane_text(app, "narration-text")
    session.store.close()


def test_the_command_opens_the_live_run_with_the_stops_and_says_where_the_agent_is(monkeypatch, capsys):
    opened = {}

    def opener(trace_path, **options):
        opened.update(options, trace_path=trace_path)
        options["live"].close()
        return 0

    monkeypatch.setattr(tutorial_command, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(tutorial_command, "debugger_opener", lambda: opener)
    assert main(["tutorial", "own-agent"]) == 0
    assert opened["trace_path"] is None and opened["live"].replaying
    assert [stop.title for stop in opened["stops"]][:2] == [
        "An agent of your own, in a folder of its own",
        "s steps into quote(), your function",
    ]
    source = opened["live"].scenario.source
    assert str(opened["message"]) == f"your agent: {source}"
    out = capsys.readouterr().out
    assert (
        f"your agent is {source}. Next, in {source.parent}: `loopscope debug run.jsonl --agent my_shop.py:build`"
        in (out)
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_printed_walk_needs_no_terminal(lang, capsys):
    assert main(["tutorial", "own-agent", "--print", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert "my_shop.py" in out and "12 roses: 27.00 yuan" in out
