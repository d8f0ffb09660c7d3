"""The 40-column timeline at 120x40: rows keep t and whole rounds, and a summary too long ends on a word's edge."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

import tutorials
from tests.helpers.pilot_helpers import debugger, settle
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.views.event_summary import summary
from tracer.tui.views.word_cut import fit


def test_a_cut_ends_on_a_word_edge_never_inside_a_number_and_keeps_a_long_words_head():
    assert fit(Text("llm_start reply: I now know the final answer"), 28, 10).plain == "llm_start reply: I now know…"
    assert fit(Text("eval 25 * 1.05 = 26.25"), 20, 5).plain == "eval 25 * 1.05 =…"  # not "= 26.2…"
    assert fit(Text("tool_end → 1. Rosenmontagsumzug"), 22, 9).plain == "tool_end → 1. Rosenmo…"  # not "→ 1.…"
    assert fit(Text("reply: 我需要先找到目前市场"), 20, 0).plain == "reply: 我需要先找到…"
    assert fit(Text("short"), 10).plain == "short"
    for width in range(2, 30):  # never wider than asked, whatever the text
        assert cell_len(fit(Text("step #1 Search → 1. 情人节前夕鲜花 prices rose"), width, 5).plain) <= width


def _rows(app) -> list[tuple[str, str]]:
    timeline = app.screen.query_one(EventTimeline)
    height = timeline.scrollable_content_region.height
    rows = []
    for top in range(0, len(app.session), height):
        timeline.scroll_to(y=top, animate=False, immediate=True)
        for y in range(min(height, len(app.session) - top)):
            event = app.session.event(top + y)
            rows.append((timeline.render_line(y).text.rstrip(), summary(event, narrow=True)))
    return rows


async def test_at_120x40_rows_show_t_and_end_whole_words():
    app = debugger(tutorials.SCENARIOS["rose-pricing"].fixture)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#left").size.width == 40
        rows = _rows(app)
        for row, said in rows:
            assert re.search(r"\d\.\d\ds ", row), row  # the elapsed time column
            if not row.endswith("…"):
                assert row.endswith(said.rstrip()), row  # whole, or marked as cut
                continue
            shown = row[:-1].rstrip()
            kept = max(i for i in range(1, len(said) + 1) if shown.endswith(said[:i].rstrip()))
            assert kept >= 3, (row, said)  # the summary's start, never only the kind
            cut_in_number = said[kept - 1 : kept].isdigit() and re.match(r"[.,]?\d", said[kept:])
            assert not cut_in_number, (row, said)
        cut = {row.split("s ", 1)[1] for row, _ in rows if row.endswith("…")}
        assert "llm_end reply: I now…" in cut  # not "I now kn"
        assert "calculator_eval 25 *…" in cut  # not "25 * 1.0": a number is never cut


async def test_a_run_of_fewer_than_ten_rounds_gives_the_rounds_second_digit_to_the_summary():
    short = debugger(tutorials.SCENARIOS["rose-pricing"].fixture)
    async with short.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = short.screen.query_one(EventTimeline).render_line(1).text
    long = debugger(tutorials.SCENARIOS["iteration-limit"].fixture)
    async with long.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        starts = [p for p in range(len(long.session)) if long.session.event(p).kind == "llm_start"]
        long.session.goto(starts[0])
        timeline = long.screen.query_one(EventTimeline)
        timeline.follow()
        other = timeline.render_line(starts[0] - int(timeline.scroll_y)).text
    assert "┌1 " in first and "┌1  " not in first
    assert "┌1  " in other  # room for round 10 and on: the rows' columns stay in line
