"""While a worker re-executes a long recording for its locals, the pane says how far it is and the keys work."""

from __future__ import annotations

import re
import threading

import tutorials
from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tracer.debug import run_ahead
from tracer.tui.flows import reenacting

SIZE = (120, 40)
HELD_AT = 60  # the re-executed run stops here until the test lets it go on


def _hold_the_run(monkeypatch) -> threading.Event:
    """The re-executed run waits before handing out event HELD_AT until the returned event is set."""
    release = threading.Event()
    hand_over = run_ahead.RunAhead._hand_over

    def held(self, event):
        if event.seq == HELD_AT:
            assert release.wait(30), "the test never let the run go on"
        hand_over(self, event)

    monkeypatch.setattr(run_ahead.RunAhead, "_hand_over", held)
    monkeypatch.setattr(reenacting, "PROGRESS_EVERY", 0.0)  # say how far after every chunk
    return release


async def test_a_held_re_execution_shows_its_progress_while_the_keys_move_and_the_locals_follow(monkeypatch):
    release = _hold_the_run(monkeypatch)
    app = debugger(tutorials.SCENARIOS["iteration-limit"].fixture)  # 109 events
    async with app.run_test(size=SIZE) as pilot:
        session, last = app.session, len(app.session) - 1
        try:
            await pilot.press("1", "G")  # the variables pane, at the last event: re-executing starts
            said = f"of {last + 1} events"
            await settle_until(pilot, lambda: said in pane_text(app, "variables-text"))
            done = int(re.search(rf"re-executing the run, (\d+) {said}", pane_text(app, "variables-text"))[1])
            assert 0 < done <= HELD_AT, "a chunk was done before the hold, and the pane says so"
            for key, position in (("S", last - 1), ("S", last - 2), ("g", 0), ("G", last)):
                await pilot.press(key)  # the keys answer while the run is held
                await settle_until(pilot, lambda position=position: session.position == position)
            assert "re-executing the run" in pane_text(app, "variables-text")
            assert len(session.store.reenactment.snapshots) <= HELD_AT
        finally:
            release.set()
        await settle(pilot, lambda: "Real locals" in pane_text(app, "variables-text"))
        assert len(session.store.reenactment.snapshots) == last + 1


async def settle_until(pilot, condition, timeout: float = 10.0) -> None:
    """Like settle, without waiting for the (held) re-execution to finish."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the debugger did not get there while re-executing"
        await pilot.pause(0.02)
