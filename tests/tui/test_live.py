"""Live mode: the real executor pulled one event per step in a worker, real locals, a responsive UI."""

from __future__ import annotations

import threading

from textual.widgets import TabbedContent

from tests.helpers.pilot_helpers import active_tab, debugger, pane_text, said, settle
from tracer.debug.live_run import LiveRun
from tracer.trace.reader import TraceFile


def idle(app) -> bool:
    return not app.screen.busy


async def test_stepping_pulls_events_from_the_running_executor(tmp_path):
    run = LiveRun("rose-pricing", tmp_path / "live.jsonl")
    app = debugger(None, live=run)
    async with app.run_test(size=(120, 40)) as pilot:
        assert len(app.session) == 1 and app.session.event().kind == "chain_start"
        await pilot.press("s")
        await settle(pilot, lambda: idle(app))
        assert (len(app.session), app.session.position, app.session.event().kind) == (2, 1, "llm_start")
        await pilot.press("n", "n")
        await settle(pilot, lambda: idle(app) and app.session.position == 3)
        assert app.session.event().kind == "agent_action"
        locals_text = pane_text(app, "variables-text")
        # The real objects of the paused frames, not a reconstruction.
        assert "name_to_tool_map" in locals_text and "Tool(name='Search')" in locals_text
        assert "▶ _iter_next_step()" in locals_text
        assert "output" in locals_text and "AgentAction(tool='Search'" in locals_text
    app.session.store.close()


async def test_continue_runs_live_to_a_breakpoint_and_back_steps_browse_history(tmp_path):
    run = LiveRun("rose-pricing", tmp_path / "live.jsonl")
    app = debugger(None, live=run, breakpoints=["tool=Calculator"])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app))
        assert app.session.position == 11 and len(app.session) == 12 and not run.finished
        await pilot.press("S", "S")
        await settle(pilot)
        assert app.session.position == 9 and len(app.session) == 12  # browsing pulls nothing
        assert "_take_next_step" in pane_text(app, "variables-text")
        await pilot.press("c")
        await settle(pilot, lambda: idle(app))
        assert app.session.position == 11 and "(hit 2)" in said(app)  # met again on the way
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.store.complete)
        assert app.session.position == 22 and "the run finished" in said(app)
    path = app.session.store.close()
    with TraceFile(path) as trace:
        assert len(trace) == 23 and trace[22].kind == "chain_end"


async def test_the_ui_answers_keys_while_a_call_is_in_flight_and_esc_pauses(tmp_path):
    run = LiveRun("rose-pricing", tmp_path / "live.jsonl")
    release = threading.Event()
    real_pull = run.pull

    def slow_pull():
        release.wait(timeout=10)  # a model call that takes its time
        return real_pull()

    app = debugger(None, live=run)  # pulls chain_start at once
    run.pull = slow_pull
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: app.screen.busy is not None and str(app.screen.busy).startswith("running"))
        await pilot.press("2")
        await settle(pilot)
        assert active_tab(app) == "prompt"  # handled while the worker waits
        app.screen.query_one(TabbedContent).active = "variables"
        await pilot.press("escape")
        release.set()
        await settle(pilot, lambda: idle(app))
        assert said(app).startswith("paused at event")
        assert not run.finished
    app.session.store.close()


async def test_keys_typed_while_the_executor_runs_are_kept_in_order(tmp_path):
    run = LiveRun("rose-pricing", tmp_path / "live.jsonl")
    app = debugger(None, live=run)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s", "s", "s", "S")
        await settle(
            pilot, lambda: idle(app) and len(app.session) == 4 and not app.screen.query_one("#flow-stepping")._queued
        )
        assert app.session.position == 2  # three steps forward (each pulled live), one back
    app.session.store.close()
