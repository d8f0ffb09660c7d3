"""Variables shows the locals of the frame the call stack pane marks, whatever u/d did, live and replayed."""

from __future__ import annotations

import re
import sys

import pytest

from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tests.helpers.user_project import recorded_florist
from tracer.debug.live_run import LiveRun

SIZE = (120, 40)


def stack_marked(app) -> str:
    """The function of the call stack pane's ▶ line."""
    line = next(line for line in app.screen.stack.plain.splitlines() if line.startswith("▶"))
    return line[2:].split()[0]


def variables_marked(app) -> str:
    """The function of Variables' ▶ line (the frame whose locals it lists)."""
    match = re.search(r"^▶ (\S+)\(\)", pane_text(app, "variables-text"), re.MULTILINE)
    assert match is not None, pane_text(app, "variables-text")
    return match.group(1)


def locals_shown(app) -> dict[str, str]:
    """The name/value rows under Variables' ▶ line, up to the next frame's line."""
    rows, inside = {}, False
    for line in pane_text(app, "variables-text").splitlines():
        if line.startswith("▶ "):
            inside = True
        elif inside and line.startswith("  ") and "()" in line.split()[0]:
            break
        elif inside and line[:20].strip():
            rows[line[:20].strip()] = line[20:]
    return rows


async def walk_up_agreeing(app, pilot) -> list[str]:
    """Press u to the outermost frame; at each frame the two panes must mark the same function."""
    seen = [stack_marked(app)]
    assert variables_marked(app) == seen[-1]
    for _ in range(len(app.screen.stack.frames) - 1):
        await pilot.press("u")
        await settle(pilot)
        seen.append(stack_marked(app))
        assert variables_marked(app) == seen[-1], (seen, pane_text(app, "variables-text"))
    return seen


@pytest.fixture
def florist(tmp_path, monkeypatch):
    yield recorded_florist(tmp_path, monkeypatch)
    sys.modules.pop("florist", None)


async def test_at_a_live_tool_start_variables_shows_the_marked_user_function_not_the_tools_run(florist, tmp_path):
    recorded, _, _ = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "s", "s", "s")
        await settle(pilot, lambda: not app.screen.busy and app.session.position == 4)
        assert app.session.event().kind == "tool_start"
        assert stack_marked(app) == "price" and variables_marked(app) == "price"  # was run()'s locals
        text = pane_text(app, "variables-text")
        assert "not called yet" in text and '"item": "rose"' in locals_shown(app)["tool_input"]
        await pilot.press("d")
        await settle(pilot)
        assert stack_marked(app) == variables_marked(app) == "price"
        await pilot.press("u")
        await settle(pilot)
        assert stack_marked(app) == variables_marked(app) == "run"
        assert "tool_input" in locals_shown(app) and "self" in locals_shown(app)  # run()'s own locals
        seen = await walk_up_agreeing(app, pilot)
        assert seen[-1] == "invoke"
        await pilot.press("s")  # back to the event's frame, into price() line by line
        await settle(pilot, lambda: not app.screen.busy and run.line_stop is not None)
        assert stack_marked(app) == variables_marked(app) == "price"
        assert locals_shown(app)["item"] == "'rose'" and locals_shown(app)["quantity"] == "12"
    app.session.store.close()


async def test_with_parallel_tools_replayed_variables_follows_the_marked_frame_after_u():
    app = debugger("fixtures/parallel_tools.jsonl", wait_for_locals=True)
    async with app.run_test(size=SIZE) as pilot:
        for position in (7, 10, 11):  # a tool_start, a tool_end, a tool_error: each ran on a worker thread
            app.session.goto(position)
            app.screen.refresh_panes()
            await settle(pilot)
            assert stack_marked(app) == variables_marked(app) == "run"  # was perform_tool_calls()
            assert "no locals were captured" in pane_text(app, "variables-text")
            seen = await walk_up_agreeing(app, pilot)
            assert seen[:3] == ["run", "perform_tool_call", "perform_tool_calls"]
            assert seen[-1] == "invoke"
        app.session.goto(7)
        app.screen.refresh_panes()
        await pilot.press("u", "u")
        await settle(pilot)
        assert stack_marked(app) == variables_marked(app) == "perform_tool_calls"
        assert "name_to_tool_map" in locals_shown(app) and "actions" in locals_shown(app)
    app.session.store.close()
