"""The first frame: whole (keys, source line), and not waiting for the re-execution (real locals) or the colours."""

from __future__ import annotations

import gc
import threading

from tests.helpers.pilot_helpers import debugger, pane_text, settle
from tracer import startup
from tracer.debug.reenactment import Reenactment
from tracer.debug.session import build_session
from tracer.i18n import verbatim
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes import source_view
from tracer.tui.panes.keys_footer import KeysFooter
from tracer.tui.panes.source_view import SourceView

SIZE = (120, 40)


def painted(app) -> bool:
    """The call-stack pane's title is on the screen (the mark bench/bench_startup.py waits for)."""
    return "Call&#160;stack" in app.export_screenshot()


def _held(monkeypatch, module, name: str) -> threading.Event:
    """Make module.name wait (in whatever thread calls it) until the returned event is set."""
    release = threading.Event()
    original = getattr(module, name)

    def held(*args, **kwargs):
        assert release.wait(30), "the test never released the background work"
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, held)
    return release


async def test_the_tutorials_first_frame_is_painted_before_the_re_execution_and_the_real_locals_follow(monkeypatch):
    release = _held(monkeypatch, Reenactment, "advance")  # the re-run cannot take a step until released
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.pause()
            await pilot.press("1")  # the Variables pane, while the re-run is still held
            await pilot.pause()
            assert app.session.store.reenactment.snapshots == [], "nothing was re-executed yet"
            waiting = pane_text(app, "variables-text")
            assert "rebuilt from the recorded events" in waiting and "the real locals follow" in waiting
            assert painted(app)  # the frame is on the screen meanwhile
            await pilot.press("s")  # keys do not wait for the re-run either
            await pilot.pause()
            assert app.session.position == 1
        finally:
            release.set()
        await settle(pilot)
        await pilot.press("1")  # event 1 is a stop that shows the prompt pane; back to the variables
        await settle(pilot)
        shown = pane_text(app, "variables-text")
        assert "Real locals of the run re-executed" in shown and "the real locals follow" not in shown
        assert len(app.session.store.reenactment.snapshots) == 2  # as far as the current event, no further


async def test_a_long_re_execution_leaves_the_keys_working_and_fills_in_where_the_user_is(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        last = len(app.session) - 1
        await pilot.press("G")  # to the end: the re-run has the whole recording to go
        await pilot.press("1")
        await settle(pilot, lambda: app.session.position == last)
        assert "Real locals" in pane_text(app, "variables-text")
        assert len(app.session.store.reenactment.snapshots) == last + 1


async def test_the_source_is_shown_plain_first_and_in_colour_once_highlighted(monkeypatch, rose):
    monkeypatch.setattr(source_view, "_HIGHLIGHTED", {})  # nothing highlighted by earlier tests
    release = _held(monkeypatch, source_view, "highlighted")
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.pause()
            view = app.screen.query_one(SourceView)
            assert view.source is not None and not source_view.is_highlighted(view.source)
            assert painted(app)
            plain = view.render_line(0)
            assert plain.text.strip(), "the plain source is drawn meanwhile"
        finally:
            release.set()
        await settle(pilot)
        assert source_view.is_highlighted(view.source)
        coloured = view.render_line(0)
        assert coloured.text == plain.text
        assert {segment.style.color for segment in coloured if segment.style} - {
            segment.style.color for segment in plain if segment.style
        }, "syntax colours were added"


async def test_garbage_collection_paused_for_start_up_resumes_with_the_first_frame(rose):
    assert gc.isenabled()
    startup.pause_collection()
    try:
        assert not gc.isenabled()
        app = debugger(rose)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, gc.isenabled)
            assert painted(app)
    finally:
        startup.resume_collection()
    assert gc.isenabled()


async def test_the_first_frame_has_the_footers_keys_and_the_source_at_the_events_line(monkeypatch, rose):
    monkeypatch.setattr(source_view, "_HIGHLIGHTED", {})
    release = _held(monkeypatch, source_view, "highlighted")  # the frame before the colours
    rendered: list[int] = []  # how many keys each of the footer's renders drew
    render = KeysFooter.render

    def counted(footer):
        line = render(footer)
        rendered.append(len(footer._spans))
        return line

    monkeypatch.setattr(KeysFooter, "render", counted)
    drawn: list[str] = []  # the source pane's rows, as first drawn once it has a height
    render_line = SourceView.render_line

    def recorded(view, y):
        strip = render_line(view, y)
        if view.scrollable_content_region.height and len(drawn) < view.scrollable_content_region.height:
            drawn.append(strip.text)
        return strip

    monkeypatch.setattr(SourceView, "render_line", recorded)
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.pause()
            assert rendered and rendered[0] >= 10, "the keys are there from the footer's first render"
            assert any(row.startswith("▶") for row in drawn), f"the event's line is in the first rows drawn: {drawn}"
        finally:
            release.set()
        await settle(pilot)


async def test_a_session_opened_over_the_first_screen_stops_its_re_execution_and_later_ones_replace_each_other(
    monkeypatch, rose, invalid_tool
):
    release = _held(monkeypatch, Reenactment, "advance")  # the first screen's re-run is at work
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.pause()
            first = app.screen
            running = [w for w in app.workers if w.group == "reenact" and w.node is first.reenactment]
            assert running and not running[0].is_finished
            await app.open_session(build_session(invalid_tool), verbatim("opened"))
            await pilot.pause()
            assert app.screen is not first and app.screen_stack == [first, app.screen]
            assert running[0].is_cancelled, "the screen underneath stops re-executing"
            second = app.screen
            await app.open_session(build_session(rose), verbatim("again"))
            await pilot.pause()
            assert app.screen_stack == [first, app.screen] and app.screen is not second
        finally:
            release.set()
        await settle(pilot)
        assert "again" in app.screen.query_one("#status").plain
