"""A user's tool-calling agent replayed in the debugger with --agent: the Variables pane has its real locals, u/d too."""

from __future__ import annotations

import sys

import pytest

from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tests.helpers.shop_agents import record_shop


@pytest.fixture
def calling(tmp_path, monkeypatch):
    yield record_shop(tmp_path, "calling-awaited", monkeypatch)
    sys.modules.pop("shop", None)


async def test_the_variables_pane_shows_the_parallel_loops_real_locals_and_u_walks_out(calling):
    trace, spec = calling
    app = debugger(trace, agents=[spec])
    async with app.run_test(size=(120, 40)) as pilot:
        end = next(p for p in range(len(app.session)) if app.session.event(p).kind == "tool_end")
        app.session.goto(end)
        await pilot.press("1")
        await settle(pilot, lambda: "Real locals of the run re-executed" in pane_text(app, "variables-text"))
        shown = pane_text(app, "variables-text")
        # The call stack marks the user's tool (done by now), then the event's frame, which ran on a worker
        # thread (its locals were not captured): Variables follows the mark.
        tool = app.session.event().tool
        assert f"▶ {tool}()" in shown and "not running at this event" in shown
        await pilot.press("u")
        await settle(pilot, lambda: "▶ run()" in pane_text(app, "variables-text"))
        assert "no locals were captured" in pane_text(app, "variables-text")
        await pilot.press("u", "u")
        await settle(pilot, lambda: "▶ perform_tool_calls()" in pane_text(app, "variables-text"))
        assert "running" in pane_text(app, "variables-text")
        await pilot.press("u")
        await settle(pilot, lambda: "▶ _iter_next_step()" in pane_text(app, "variables-text"))
        assert "intermediate_steps" in pane_text(app, "variables-text")
    app.session.store.close()


async def test_without_the_agent_named_the_pane_says_how_to_trust_it(calling):
    trace, _spec = calling
    app = debugger(trace)
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.goto(3)
        await pilot.press("1")
        await settle(pilot, lambda: "no real locals" in pane_text(app, "variables-text"))
        assert "pass --agent shop:calling" in " ".join(pane_text(app, "variables-text").split())
    app.session.store.close()
