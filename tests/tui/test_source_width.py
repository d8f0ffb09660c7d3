"""The loop file is the lesson: at 120x40 the Source pane shows every line of agent_executor.py whole."""

from __future__ import annotations

import shutil

from tests.helpers.paths import ROOT, ROSE
from tests.helpers.pilot_helpers import debugger, settle
from tests.helpers.screen_text import screen_rows


async def test_every_line_of_the_loop_fits_the_source_pane_at_120x40(tmp_path):
    lines = (ROOT / "executor" / "agent_executor.py").read_text(encoding="utf-8").splitlines()
    longest = max(lines, key=len)
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        number = lines.index(longest) + 1
        view = app.screen.query_one("#source")
        view.scroll_to(y=max(0, number - 3), animate=False, immediate=True)
        await settle(pilot)
        region = view.region
        shown = [row[region.x : region.right] for row in screen_rows(app)[region.y : region.bottom]]
        assert any(longest.strip() in row for row in shown), f"line {number} is cut:\n" + "\n".join(shown)
    app.session.store.close()
