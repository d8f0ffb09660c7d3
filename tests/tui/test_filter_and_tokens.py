"""The timeline filter (F, W) and the token figures, driven through Pilot on the rose run."""

from __future__ import annotations

from textual.widgets import Input

from tests.helpers.pilot_helpers import answer, debugger, pane_text, press, said, settle
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.panes.timeline import EventTimeline

SIZE = (140, 40)


def hold(monkeypatch, owner, name):
    """Make owner.name wait until the returned event is set: the work it does is still running."""
    import threading

    release, original = threading.Event(), getattr(owner, name)

    def held(self, *args, **kwargs):
        assert release.wait(30), f"the test never released {name}"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, held)
    return release


def timeline_rows(app) -> list[str]:
    timeline = app.screen.query_one(EventTimeline)
    return [timeline.render_line(y).text for y in range(timeline.virtual_size.height)]


async def test_a_filter_shows_only_matching_rows_and_counts_the_hidden(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        total = len(app.session)
        await press(pilot, "F")
        await answer(pilot, "tool=Calculator")
        timeline = app.screen.query_one(EventTimeline)
        shown = [int(p) for p in app.session.shown()]
        assert timeline.virtual_size.height == len(shown) < total
        rows = timeline_rows(app)
        # tool_end leads with its observation (the Calculator's answer); the tool name follows it.
        assert all("Calculator" in row or "25 * 1.05" in row or "Answer: 26.25" in row for row in rows), rows
        assert f"{total - len(shown)} hidden" in str(timeline.border_subtitle)
        assert "hidden" in said(app)
        # Stepping still visits every event, hidden ones included, and the border says so.
        app.session.goto(shown[1])  # tool_start Calculator; next comes the calculator's own model call
        await press(pilot, "s")
        assert app.session.position == shown[1] + 1 not in shown
        assert "current event hidden" in str(timeline.border_subtitle)


async def test_step_within_filter_keeps_the_stepping_keys_on_shown_events(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "F")
        await answer(pilot, "llm_start")
        await press(pilot, "W")
        starts = [int(p) for p in app.session.shown()]
        await press(pilot, "s")
        assert app.session.position == starts[0]
        await press(pilot, "s", "s")
        assert app.session.position == starts[2]
        await press(pilot, "S")
        assert app.session.position == starts[1]
        await press(pilot, "G")
        assert "stepping within filter" in str(app.screen.query_one(EventTimeline).border_subtitle)


async def test_a_bad_filter_keeps_the_question_open_and_empty_clears(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "F")
        await answer(pilot, "tool_begin")
        assert "unknown event kind 'tool_begin'" in str(app.screen.query_one("#ask-hint").render())
        app.screen.query_one(Input).value = "if iteration == 3"
        await press(pilot, "enter")
        assert {app.session.event(int(p)).iteration for p in app.session.shown()} == {3}
        await press(pilot, "F")
        await answer(pilot, "")
        assert app.session.shown() is None
        assert app.screen.query_one(EventTimeline).virtual_size.height == len(app.session)


async def test_tokens_and_cost_show_in_the_detail_pane_and_the_status_line(rose):
    app = debugger(rose)
    async with app.run_test(size=(200, 40)) as pilot:
        await press(pilot, "s", "3")  # the first llm_start, the Detail tab
        detail = pane_text(app, "detail-text")
        assert "prompt +" in detail and "estimated (no usage recorded)" in detail
        assert "priced as gpt-4o-mini" in detail
        status = app.screen.query_one(StatusLine).plain
        assert "iteration" in status and "run " in status and "(est.)" in status
        await press(pilot, "s")  # its llm_end shows the same call
        assert pane_text(app, "detail-text").count("prompt +") == 1


async def test_an_otlp_file_from_another_tool_opens_and_steps(tmp_path):
    from tests.helpers.foreign_traces import write_otlp

    app = debugger(write_otlp(tmp_path / "spans.json"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert said(app).startswith("imported spans.json: OTLP JSON: 7 spans, 2 LLM, 4 tool")
        assert "shown at the top level" in said(app)
        await press(pilot, "s", "3")
        assert app.session.event().kind == "llm_start"
        assert "52 prompt + 19 completion tokens, from the endpoint's usage" in pane_text(app, "detail-text")
        await press(pilot, "n")
        assert app.session.position == 2
        await press(pilot, "F")
        await answer(pilot, "tool_start")
        assert app.screen.query_one(EventTimeline).virtual_size.height == 4  # three siblings and the orphan


async def test_a_filter_that_reads_every_event_runs_off_the_ui_thread(rose, monkeypatch):
    from tracer.debug.event_filter import EventFilter

    release = hold(monkeypatch, EventFilter, "mask")
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await press(pilot, "F")
            await settle(pilot, lambda: bool(app.screen.query(Input)))
            app.screen.query_one(Input).value = 'if tool_input == "25 * 1.05"'
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.shown() is None  # still computing, and the window answers meanwhile
            assert "filtering" in app.screen.query_one(StatusLine).plain
            await pilot.press("s")  # waits for the filter, like every motion while something is busy
            await pilot.pause()
            assert app.session.position == 0
        finally:
            release.set()
        await settle(pilot, lambda: app.session.shown() is not None and app.session.position == 1)
        assert [app.session.event(int(p)).kind for p in app.session.shown()] == ["agent_action", "tool_start"]


async def test_continue_to_a_condition_on_a_big_trace_searches_off_the_ui_thread(rose, monkeypatch):
    from tracer.debug.breakpoints import BreakpointSet
    from tracer.tui.flows import stepping

    monkeypatch.setattr(stepping, "BACKGROUND_MOTION_EVENTS", 0)  # the rose run stands in for a million events
    release = hold(monkeypatch, BreakpointSet, "first_stop")
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.breakpoints.add('if tool_input == "25 * 1.05"', save=False)
        try:
            await pilot.press("c")
            await pilot.pause()
            assert app.session.position == 0  # still searching, and the window answers meanwhile
            assert "checking breakpoint conditions" in app.screen.query_one(StatusLine).plain
            await pilot.press("s")  # waits its turn, like every key while something is busy
            await pilot.pause()
            assert app.session.position == 0
        finally:
            release.set()
        await settle(pilot, lambda: app.session.position > 0 and "checking" not in said(app))
        landed = app.session.event(app.session.position)
        assert landed.kind in ("agent_action", "tool_start") and landed.tool_input == "25 * 1.05"


async def test_esc_stops_a_long_condition_search_where_it_got_to(rose, monkeypatch):
    from tracer.debug import breakpoints as breakpoints_module
    from tracer.debug.breakpoints import BreakpointSet
    from tracer.tui.flows import stepping

    monkeypatch.setattr(stepping, "BACKGROUND_MOTION_EVENTS", 0)  # the rose run stands in for a million events
    monkeypatch.setattr(breakpoints_module, "CANCEL_CHECK_EVERY", 1)
    release = hold(monkeypatch, BreakpointSet, "_hits_at")  # the search is busy checking its first event
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.breakpoints.add('if tool_input == "no such input"', save=False)  # never true
        try:
            await pilot.press("c")
            await pilot.pause()
            assert "esc stops" in app.screen.query_one(StatusLine).plain
            await pilot.press("escape")
        finally:
            release.set()
        await settle(pilot, lambda: "(esc)" in said(app))
        # It stopped after the first event it checked (event 3, the first with a tool_input), not at the end.
        assert app.session.position == 3
        assert said(app) == ("continue: stopped at event 3, breakpoint conditions checked up to here (esc)")


async def test_quitting_during_a_long_condition_search_stops_the_search(rose, monkeypatch):
    import threading

    from tracer.debug import breakpoints as breakpoints_module
    from tracer.debug.breakpoints import BreakpointSet
    from tracer.tui.flows import stepping

    monkeypatch.setattr(stepping, "BACKGROUND_MOTION_EVENTS", 0)
    monkeypatch.setattr(breakpoints_module, "CANCEL_CHECK_EVERY", 1)
    checks, original, original_search = [], BreakpointSet._hits_at, BreakpointSet.first_stop
    first_check, window_closed, search_over = threading.Event(), threading.Event(), threading.Event()

    def slow_check(self, *args, **kwargs):  # a slow condition: the first check lasts until the window has closed
        checks.append(1)
        if not first_check.is_set():
            first_check.set()
            window_closed.wait(30)
        return original(self, *args, **kwargs)

    def watched_search(self, *args, **kwargs):
        try:
            return original_search(self, *args, **kwargs)
        finally:
            if checks:  # the search that reached the slow condition, not an earlier one
                search_over.set()

    monkeypatch.setattr(BreakpointSet, "_hits_at", slow_check)
    monkeypatch.setattr(BreakpointSet, "first_stop", watched_search)
    app = debugger(rose)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.session.breakpoints.add('if tool_input == "no such input"', save=False)
            await pilot.press("c")
            await settle(pilot, first_check.is_set)
            await pilot.press("q")
    finally:
        window_closed.set()
    assert search_over.wait(30)  # the search ends: at its next look, or after every check had it gone on
    assert len(checks) <= 2  # it stopped at its next look, not after all four candidates


def test_the_status_lines_bill_says_nothing_it_does_not_know():
    from tracer.report.cost.prices import CostTotal
    from tracer.tui.flows.tutorials import tutorial_session
    from tracer.tui.panes.status_line import _bill, bill_text

    session = tutorial_session("rose-pricing", 0, "en")
    session.goto(0)  # chain_start: round 0 has no model call ("iteration 0 tok no price" said nothing)
    assert bill_text(session, 0).startswith("run ") and "no price" not in bill_text(session, 0)
    session.goto(2)
    assert bill_text(session, 1).startswith("iteration 300 tok $")
    assert _bill(CostTotal(1, 10, 5, None, False), "en") == "15 tok"  # a model without a price: tokens only
    assert _bill(CostTotal(1, 10, 5, 0.5, False), "zh") == "15 token $0.500000"
