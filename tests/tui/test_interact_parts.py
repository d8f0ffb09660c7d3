"""backspace at a part's first stop goes back to the last stop of the part before, as space goes on past its last."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.pilot_helpers import said, settle
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tutorials.registry import TUTORIALS


@pytest.mark.parametrize(("name", "lang"), [("parse-error", "en"), ("tool-error", "zh")])
async def test_backspace_at_the_first_stop_of_part_2_goes_to_the_last_stop_of_part_1(name, lang):
    app = DebuggerApp(tutorial_session(name, 1, lang))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        second = app.session
        assert app.session.position == second.stops[0].seq  # part 2 opens at its first stop
        await pilot.press("backspace")
        await settle(pilot, lambda: app.session is not second and app.screen.session is app.session)
        assert Path(app.session.store.path).resolve() == TUTORIALS[name].parts[0].fixture.resolve()
        assert app.session.position == app.session.stops[-1].seq  # its last stop, not its first
        stops = len(app.session.stops)
        assert said(app, "en").startswith("back to the previous part's last stop")
        assert f"part 1 of {len(TUTORIALS[name].parts)}: stop {stops}/{stops}" in said(app, "en")
        first = app.session
        await pilot.press("space")  # and space goes on to part 2 again, at its first stop
        await settle(pilot, lambda: app.session is not first and app.screen.session is app.session)
        assert Path(app.session.store.path).resolve() == TUTORIALS[name].parts[1].fixture.resolve()
        assert app.session.position == app.session.stops[0].seq


async def test_backspace_at_the_first_stop_of_the_first_part_stays_and_says_so():
    app = DebuggerApp(tutorial_session("parse-error", 0, "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        session, position = app.session, app.session.position
        await pilot.press("backspace")
        await settle(pilot)
        assert app.session is session and app.session.position == position
        assert said(app) == "no further stop that way"
