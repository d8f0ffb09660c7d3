"""The debugger on a trace whose header names code: no real locals and no fork until the user trusts the agent."""

from __future__ import annotations

import sys

import pytest
from textual.widgets import TextArea

from tests.helpers.hostile_agents import forget_bait, hostile_trace, imported_bait, markers, write_bait
from tests.helpers.pilot_helpers import debugger, pane_text, said, settle
from tracer.tui.screens.main_screen import DebuggerScreen

SIZE = (120, 40)
FINAL = " I can answer now.\nFinal Answer: about 31.5 yuan"


@pytest.fixture
def downloads(tmp_path, monkeypatch):
    write_bait(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    forget_bait()
    yield tmp_path
    forget_bait()


async def fork_at(pilot, app, at: int) -> None:
    app.session.goto(at)
    await pilot.press("f")
    await settle(pilot)
    app.screen.query_one(TextArea).text = FINAL
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: not app.screen.busy and isinstance(app.screen, DebuggerScreen))


async def test_an_untrusted_agent_gives_no_real_locals_and_no_fork_and_says_how_to_trust_it(downloads):
    app = debugger(hostile_trace(downloads, "them.jsonl", agent="evil:build"))
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(3)
        await pilot.press("1")
        await settle(pilot)
        shown = pane_text(app, "variables-text")
        assert "no real locals: the trace names agent 'evil:build'" in shown and "--agent evil:build" in shown
        original = app.session
        await fork_at(pilot, app, 2)
        assert app.session is original
        assert said(app).startswith("fork failed: the trace names agent 'evil:build'")
    app.session.store.close()
    app.close_opened()
    assert markers(downloads) == [] and imported_bait() == []


async def test_with_the_agent_named_the_fork_runs_it_and_the_fork_keeps_it_trusted(downloads):
    app = debugger(hostile_trace(downloads, "them.jsonl", agent="evil:build"), agents=["evil:build"])
    async with app.run_test(size=SIZE) as pilot:
        original = app.session
        await fork_at(pilot, app, 2)
        await settle(pilot, lambda: app.session is not original)
        assert app.session.store.header.fork == {"reply": FINAL}, said(app)
        assert app.session.store.agents == ("evil:build",)
        assert app.session.store.reenactment.problem is None
    app.session.store.close()
    app.close_opened()
    assert markers(downloads) == ["evil.imported"]
