"""Every timeline row keeps its deciding value in view at 80 and 120 columns; rounds never run into kinds."""

from __future__ import annotations

import pytest

import tutorials
from tests.helpers.pilot_helpers import debugger, settle
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.screens.help_screen import HelpScreen

SIZES = [(80, 24), (120, 40)]


def _deciding(event) -> str | None:
    """What a learner must see on the row, or None for kinds without one."""
    if event.kind == "finish_check":
        return str(event.is_finish)
    if event.kind == "retry":
        return f"#{event.attempt} wait {event.delay:.2f}s"
    if event.kind == "rate_limit_wait":
        return f"{event.waited:.2f}s"
    if event.kind == "tool_end":
        return "→ " + event.observation.strip()[:3]
    if event.kind == "parse_error":
        return "handled" if event.handled else "not handled"
    return None


def _row(app, position: int) -> str:
    timeline = app.screen.query_one(EventTimeline)
    app.session.goto(position)
    timeline.follow()
    return timeline.render_line(position - int(timeline.scroll_y)).text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scenario", ["tool-error-retried", "rate-limit", "parse-error-on", "iteration-limit"])
async def test_each_rows_deciding_value_is_visible(scenario, size):
    app = debugger(tutorials.SCENARIOS[scenario].fixture)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        checked = 0
        for position in range(len(app.session)):
            event = app.session.event(position)
            wanted = _deciding(event)
            if wanted is not None:
                assert wanted in _row(app, position), (position, event.kind, _row(app, position))
                checked += 1
        assert checked >= 3


async def test_round_numbers_never_run_into_the_kind_and_t_is_shown_at_120():
    app = debugger(tutorials.SCENARIOS["iteration-limit"].fixture)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        starts = [
            p
            for p in range(len(app.session))
            if app.session.event(p).kind == "llm_start" and app.session.event(p).iteration >= 10
        ]
        row = _row(app, starts[0])
        assert "┌10 " in row and "┌10llm" not in row
        event = app.session.event(starts[0])
        assert f"{event.t:.2f}s" in row  # the elapsed time column


async def test_help_scrolls_with_obvious_keys_and_the_pane_scrolls_without_focus():
    app = debugger(tutorials.SCENARIOS["iteration-limit"].fixture)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("1")  # variables, long at a late event
        app.session.goto(100)
        app.screen.refresh_panes()
        await settle(pilot)
        pane = app.screen.query_one("#variables-text")
        assert not pane.has_focus and pane.scroll_y == 0
        await pilot.press("j")
        await settle(pilot)
        assert pane.scroll_y > 0
        assert "j/k" in app.screen.query_one("KeysFooter").app.screen.active_bindings.get("j").binding.key_display
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        scroller = app.screen.query_one("#help")
        assert "j/k scroll" in str(scroller.border_subtitle)
        await pilot.press("space")
        await settle(pilot)
        assert scroller.scroll_y > 0
        await pilot.press("k")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)


async def test_the_source_title_starts_with_the_method_and_z_widens_the_source():
    app = debugger(tutorials.SCENARIOS["rose-pricing"].fixture)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        title = str(app.screen.query_one("#source-pane").border_title)
        assert title.startswith("iter_events() · ")
        source = app.screen.query_one("#source")
        narrow = source.size.width
        await pilot.press("z")
        await settle(pilot)
        assert source.size.width > narrow + 20 and not app.screen.query_one("#left").display
