"""The debugger's Detail pane shows the run's scores (`loopscope score`, imports) at its first event and at its end:
each with who gave it and when, the latest of a name marked, the comment shown literally; not at the events between."""

from __future__ import annotations

import shutil

from tests.helpers.paths import ROSE
from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tracer.cli import main

SIZE = (120, 40)


def scored_rose(tmp_path):
    path = shutil.copy(ROSE, tmp_path / "rose.jsonl")
    for name, value, comment in (
        ("helpful", "0.2", "quoted [bold red]last year's[/] price"),
        ("verdict", "wrong price", ""),
        ("helpful", "0.8", ""),
    ):
        assert main(["score", str(path), name, value, *(["--comment", comment] if comment else [])]) == 0
    return path


async def test_the_first_event_and_the_end_show_the_runs_scores(tmp_path, capsys):
    app = debugger(scored_rose(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")  # the Detail tab
        await settle(pilot)
        assert app.session.position == 0
        detail = pane_text(app, "detail-text")
        lines = [line.strip() for line in detail.splitlines()]
        first = next(at for at, line in enumerate(lines) if line.startswith("scores"))
        assert lines[first].startswith("scores") and "helpful = 0.2  from loopscope" in lines[first]
        assert lines[first + 1] == "quoted [bold red]last year's[/] price"  # literal: not markup
        assert "verdict = wrong price ✓" in lines[first + 2]
        assert "helpful = 0.8 ✓" in lines[first + 3]  # the latest helpful: the one `runs` shows
        await pilot.press("s")
        await settle(pilot, lambda: app.session.position == 1)
        assert "helpful =" not in pane_text(app, "detail-text")
        app.session.goto(len(app.session) - 2)
        await pilot.press("s")
        await settle(pilot, lambda: app.session.position == len(app.session) - 1)
        end = pane_text(app, "detail-text")
        assert "chain_end" in end and "helpful = 0.8 ✓" in end and "verdict = wrong price" in end


async def test_a_run_without_scores_shows_no_scores_section(tmp_path):
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await settle(pilot)
        assert not any(line.startswith("scores") for line in pane_text(app, "detail-text").splitlines())


async def test_the_scores_speak_chinese_with_the_debugger(tmp_path):
    from tracer.debug.options import DebuggerOptions
    from tracer.tui.app import DebuggerApp
    from tracer.tui.launch import build_session

    app = DebuggerApp(build_session(scored_rose(tmp_path), options=DebuggerOptions(lang="zh")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await settle(pilot)
        detail = pane_text(app, "detail-text")
        assert "分数" in detail and "helpful = 0.8 ✓  来自 loopscope" in detail
