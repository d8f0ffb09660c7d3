"""The debugger shows a model failing for good: refused calls stand out on the timeline, breaker states on the status line."""

from __future__ import annotations

import shutil

from tests.helpers.pilot_helpers import debugger, settle, status
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.views.event_summary import REFUSED_STYLE, kind_style, summary
from tutorials import SCENARIOS

SIZE = (140, 40)


def copy_of(name, tmp_path):
    fixture = SCENARIOS[name].fixture
    return shutil.copy(fixture, tmp_path / fixture.name)


async def test_breaker_states_show_on_the_status_line_and_refused_calls_on_the_timeline(tmp_path):
    app = debugger(copy_of("fallback-model", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        store = app.session.store
        kinds = [store.event(p).kind for p in range(len(store))]
        assert "breakers: primary closed backup closed" in status(app)
        app.session.goto(kinds.index("breaker_open"))
        app.screen.refresh_panes()
        await settle(pilot)
        assert "breakers: primary open backup closed" in status(app)
        refused = len(kinds) - 1 - kinds[::-1].index("fallback")
        row = app.screen.query_one(EventTimeline).render_line(refused)
        assert "fallback primary REFUSED" in row.text  # the deciding word; the t column and the pane cut the rest
        assert any(
            segment.style and segment.style.bgcolor and segment.style.bgcolor.name == "red"
            for segment in row
            if "fallback" in segment.text
        )


async def test_a_run_without_breakers_keeps_its_status_line(tmp_path):
    app = debugger(copy_of("rose-pricing", tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "breakers" not in status(app)


def test_each_recovery_event_has_its_own_colour_and_summary(tmp_path):
    from tracer.trace.reader import load_trace

    events = load_trace(SCENARIOS["fallback-rules"].fixture)[1]
    fallbacks = [e for e in events if e.kind == "fallback"]
    assert (
        kind_style("fallback", fallbacks[0]) != REFUSED_STYLE and kind_style("fallback", fallbacks[1]) == REFUSED_STYLE
    )
    degrade = next(e for e in events if e.kind == "degrade")
    assert summary(degrade) == "after 3 failures: rule 'weather' → get_weather('Hangzhou')"
    assert summary(next(e for e in events if e.kind == "plan_error")).startswith("1/3 CircuitOpenError")
