"""space in the live own-agent tutorial runs the live run on to the next stop, from the first stop on."""

from __future__ import annotations

from tests.helpers.pilot_helpers import pane_text, said, settle
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session


async def test_space_walks_every_stop_of_the_live_tutorial_without_s(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = tutorial_session("own-agent", 0, "zh")
    stops = [stop.seq for stop in session.stops]
    app = DebuggerApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.session.position == stops[0] and len(app.session) <= stops[1]  # the run has not got there
        for number, seq in enumerate(stops[1:], start=2):
            await pilot.press("space")
            await settle(pilot, lambda seq=seq: not app.screen.busy and app.session.position == seq)
            assert said(app, "zh") == f"讲解停靠点：事件 {seq}"
            assert f"停靠点 {number}/{len(stops)}" in pane_text(app, "narration-text")
        await pilot.press("backspace")  # back is a plain move: those events are there
        await settle(pilot)
        assert app.session.position == stops[-2]
    session.store.close()
