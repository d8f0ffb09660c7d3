"""Tutorials flow from part to part on space, end by naming the others, and never write next to shipped files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from textual.widgets import TextArea

from tests.helpers.pilot_helpers import debugger, pane_text, said, settle
from tracer.debug.breakpoints import SIDECAR_SUFFIX
from tracer.debug.shipped import is_shipped
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.forking import fork_destination
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.screens.fork_screen import ForkScreen
from tracer.tui.screens.main_screen import DebuggerScreen
from tutorials.registry import TUTORIALS

SIZE = (120, 40)


async def _walk_to_the_end(pilot, app, limit: int = 40) -> None:
    for _ in range(limit):
        if app.session.stop_position(1) is None:
            return
        await pilot.press("space")
        await settle(pilot)


async def test_space_past_a_parts_last_stop_opens_the_next_part_and_the_end_lists_the_others():
    app = DebuggerApp(tutorial_session("parse-error", 0, "en"))
    async with app.run_test(size=SIZE) as pilot:
        first = app.session
        await _walk_to_the_end(pilot, app)
        assert "space: on to part 2 of 2" in pane_text(app, "narration-text")
        await pilot.press("space")
        await settle(pilot, lambda: app.session is not first and app.screen.session is app.session)
        assert Path(app.session.store.path).name == "parse_error_on.jsonl"
        assert "end of that part" in said(app) and "part 2 of 2" in said(app)
        await _walk_to_the_end(pilot, app)
        end = pane_text(app, "narration-text")
        assert "End of the tutorial. Other tutorials" in end
        others = [name for name in TUTORIALS if name != "parse-error"]
        assert all(f"{name} — " in end for name in others) and "parse-error — " not in end
        await pilot.press("space")
        await settle(pilot)
        # the status line points at the narration, which lists them (a list does not fit one line)
        assert said(app) == "End of the tutorial: T opens another (the narration lists them)"


async def test_the_chinese_session_moves_on_in_chinese():
    app = DebuggerApp(tutorial_session("tool-error", 0, "zh"))
    async with app.run_test(size=SIZE) as pilot:
        await _walk_to_the_end(pilot, app)
        assert "按空格进入第 2/3 部分" in pane_text(app, "narration-text")
        first = app.session
        await pilot.press("space")
        await settle(pilot, lambda: app.session is not first and app.screen.session is app.session)
        status = app.screen.query_one(StatusLine).plain
        assert "上一部分结束 · 教程 tool-error，第 2/3 部分" in status, status


async def test_breakpoints_in_a_shipped_recording_are_never_saved_next_to_it():
    session = tutorial_session("rose-pricing", 0, "en")
    fixture = Path(session.store.path)
    sidecar = Path(str(fixture) + SIDECAR_SUFFIX)
    assert is_shipped(fixture) and not sidecar.exists()
    app = DebuggerApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        await settle(pilot)
        assert len(app.session.breakpoints) == 1
    assert not sidecar.exists()
    assert not is_shipped(Path("/tmp/elsewhere.jsonl"))


def test_forks_of_shipped_recordings_go_to_the_users_directory_and_are_ignored_by_git(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPSCOPE_FORKS", str(tmp_path / "forks"))
    fixture = TUTORIALS["rose-pricing"].parts[0].fixture
    path = fork_destination(fixture, 5)
    assert path.parent == tmp_path / "forks" and path.parent.is_dir()
    mine = fork_destination(tmp_path / "mine.jsonl", 5, tmp_path)
    assert mine.parent == tmp_path
    root = fixture.parent.parent
    ignored = subprocess.run(["git", "check-ignore", "-q", str(root / "rose_pricing.fork-5.jsonl")], cwd=root)
    assert ignored.returncode == 0, "a fork written into the repository is ignored by git"


async def test_the_fork_box_says_what_follows_the_edit_and_ctrl_a_selects_all():
    app = debugger(TUTORIALS["rose-pricing"].parts[0].fixture)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)  # the Search tool_end
        await pilot.press("f")
        await settle(pilot, lambda: isinstance(app.screen, ForkScreen))
        after = str(app.screen.query_one("#fork-after").render())
        assert "gets the reply recorded for the old prompt" in after and "may be stale" in after
        box = app.screen.query_one(TextArea)
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert box.selected_text == box.text and len(box.text) > 100
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, DebuggerScreen))
