"""The playground without a model: an unchanged prompt replays the recording, and there is nothing to fork."""

from __future__ import annotations

from tests.helpers.pilot_helpers import debugger, pane_text, said, settle
from tracer.tui.screens.playground_screen import PlaygroundScreen


async def test_unchanged_prompt_replays_and_f_refuses_a_fork_that_changes_nothing(rose):
    app = debugger(rose)
    async with app.run_test(size=(140, 44)) as pilot:
        app.session.goto(3)  # an agent_action: not a model call
        await pilot.press("e")
        await settle(pilot)
        assert "e works at a model call: event 3 is agent_action" in said(app)
        app.session.goto(2)  # an llm_end opens its call too
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, PlaygroundScreen))
        assert app.screen.call.at == 1
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.screen.rerun is not None)
        assert app.screen.rerun.replayed and pane_text(app, "playground-new") == pane_text(app, "playground-recorded")
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, PlaygroundScreen)
        assert "a fork would change nothing" in str(app.screen.query_one("#playground-hint").render())
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, PlaygroundScreen) and said(app) == "playground closed"
