"""SVG snapshots of the whole debugger screen at the rose-pricing run's key moments.

The run is recorded afresh from the scenario's own replies (the same events as
fixtures/rose_pricing.jsonl) so its source lines always match the executor the source pane
shows; a snapshot then changes only when the screen or the visible executor source does.
Update with `uv run pytest tests/tui/test_snapshots.py --snapshot-update` and look at the diff.
"""

from __future__ import annotations

import pytest

from tests.helpers.pilot_helpers import debugger, settle
from tests.helpers.svg_snapshot import DebuggerSVGExtension
from tests.helpers.trace_factory import INVALID_TOOL_REPLIES, record
from tutorials.rose_pricing import REPLIES

SIZE = (120, 40)


@pytest.fixture
def svg(snapshot):
    return snapshot.use_extension(DebuggerSVGExtension)


async def screen_at(path, kind: str, nth: int = 1, last: bool = False) -> str:
    app = debugger(path)
    async with app.run_test(size=SIZE) as pilot:
        found = [i for i in range(len(app.session)) if app.session.event(i).kind == kind]
        app.session.goto(found[-1] if last else found[nth - 1])
        app.screen.refresh_panes()
        await settle(pilot)
        return await steady_screenshot(app, pilot)


async def steady_screenshot(app, pilot, tries: int = 100) -> str:
    """The screen once two screenshots in a row agree: on a loaded machine a pane may still be
    catching up (centring the source, a worker's totals) when the first pause returns."""
    shot = app.export_screenshot()
    for _ in range(tries):
        await pilot.pause(0.05)
        again = app.export_screenshot()
        if again == shot:
            return shot
        shot = again
    return shot


async def test_first_agent_action(tmp_path, svg):
    path = record(tmp_path / "rose_pricing.jsonl", REPLIES, run_id="rose-pricing")
    assert await screen_at(path, "agent_action") == svg


async def test_final_finish_check_true(tmp_path, svg):
    path = record(tmp_path / "rose_pricing.jsonl", REPLIES, run_id="rose-pricing")
    assert await screen_at(path, "finish_check", last=True) == svg


async def test_invalid_tool_observation(tmp_path, svg):
    path = record(tmp_path / "invalid_tool.jsonl", INVALID_TOOL_REPLIES, run_id="invalid-tool")
    assert await screen_at(path, "invalid_tool") == svg
