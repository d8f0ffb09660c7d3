"""The waterfall pane (w): lanes drawn from the trace, its keys move the debugger, the debugger moves its highlight."""

from __future__ import annotations

import re
import shutil

from tests.helpers.foreign_traces import write_otlp
from tests.helpers.paths import FIXTURES
from tests.helpers.pilot_helpers import debugger, settle
from tracer.report.waterfall.builder import WaterfallBuilder
from tracer.report.waterfall.cells import Window, lane_cells
from tracer.tui.panes.waterfall_pane import WaterfallPane
from tracer.tui.views.waterfall_rows import axis_row, lane_row


def rows(pane: WaterfallPane) -> list[str]:
    return [pane._line(y, pane.scrollable_content_region.height).plain for y in range(pane.size.height)]


async def test_w_shows_the_lanes_of_the_parallel_run_and_arrows_move_the_debugger(tmp_path):
    app = debugger(shutil.copy(FIXTURES / "parallel_tools.jsonl", tmp_path / "parallel.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(WaterfallPane)
        assert not pane.display
        await pilot.press("w")
        await settle(pilot, lambda: pane.waterfall is not None)
        assert pane.display and pane.has_focus
        shown = rows(pane)
        assert [row[:9].strip() for row in shown[1:5]] == ["model", "tool 1", "tool 2", "tool 3"]
        assert "get_weather call_sh" in shown[3] and "✗" in shown[4]  # Guangzhou's call failed
        session = app.screen.session
        await pilot.press("right")  # from event 0 (no bar): the first bar, the model call at event 1
        await settle(pilot)
        assert session.position == 1
        await pilot.press("right", "right")
        await settle(pilot)
        assert session.position == 7 and pane.current == 2  # the second tool call (call_sh)
        await pilot.press("down")  # the lane below: call_gz
        await settle(pilot)
        assert session.position == 8
        await pilot.press("up", "up")
        await settle(pilot)
        assert session.position == 6  # call_bj, in tool 1
        # And back: moving the debugger moves the highlight (and the detail line under the lanes).
        session.goto(17)
        app.screen.refresh_panes()
        await settle(pilot)
        assert pane.current == 4 and "events 17–18" in rows(pane)[-1]
        await pilot.press("w")
        await settle(pilot)
        assert not pane.display and app.screen.query_one("#timeline").has_focus


async def test_opened_after_moving_to_a_lower_lane_it_still_shows_every_lane(tmp_path):
    # Moving while the pane was hidden (no height) used to scroll it to the current lane alone,
    # with empty rows under it.
    app = debugger(shutil.copy(FIXTURES / "parallel_tools.jsonl", tmp_path / "parallel.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.session.goto(10)  # Guangzhou's failure, in the last lane
        app.screen.refresh_panes()
        await settle(pilot)
        await pilot.press("w")
        pane = app.screen.query_one(WaterfallPane)
        await settle(pilot, lambda: pane.waterfall is not None)
        assert [row[:9].strip() for row in rows(pane)[1:5]] == ["model", "tool 1", "tool 2", "tool 3"]
        assert "failed" in rows(pane)[-1]


async def test_zoom_narrows_the_axis_around_the_current_event(tmp_path):
    app = debugger(shutil.copy(FIXTURES / "rate_limit.jsonl", tmp_path / "rate.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        pane = app.screen.query_one(WaterfallPane)
        await settle(pilot, lambda: pane.waterfall is not None)
        whole = pane.window
        app.screen.session.goto(17)
        app.screen.refresh_panes()
        await pilot.press("plus", "plus")
        await settle(pilot)
        assert pane.window.t1 - pane.window.t0 == (whole.t1 - whole.t0) / 4
        assert pane.window.t0 <= 6.006 < pane.window.t1  # event 17's time stays in view
        await pilot.press("0")
        await settle(pilot)
        assert pane.window == whole


async def test_an_imported_trace_has_its_waterfall(tmp_path):
    app = debugger(write_otlp(tmp_path / "spans.json", orphan=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        pane = app.screen.query_one(WaterfallPane)
        await settle(pilot, lambda: pane.waterfall is not None)
        assert [pane.waterfall.lanes[i].name for i in pane.waterfall.order] == ["model", "tool 1", "tool 2", "tool 3"]


def test_names_from_the_trace_are_drawn_literally_inside_their_bars():
    builder = WaterfallBuilder()
    builder.add(0, "tool_start", 0.0, None, "[red]boom[/red]\x1b[2J")
    builder.add(1, "tool_end", 1.0, None, "[red]boom[/red]\x1b[2J")
    waterfall = builder.waterfall()
    row = lane_row(waterfall, "tool 1", lane_cells(waterfall, 0, Window(0.0, 1.0, 40)), None, None)
    assert "[red]boom[/red]" in row.plain and "\x1b" not in row.plain  # shown, not obeyed


def test_the_current_time_mark_never_cuts_a_ticks_label():
    window = Window(0.0, 2.0, 100)
    for cursor in range(100):
        axis = axis_row(window, cursor, "time").plain[9:]
        assert axis[cursor] == "▼"
        labels = re.findall(r"╵(\S+)", axis)
        assert labels and all(re.fullmatch(r"\d+(\.\d+)?s", label) for label in labels), (cursor, axis)


def one_bar_row(end: float, name: str, width: int = 60, then: float | None = None, cursor: int | None = None) -> str:
    """A lane with a tool bar from 0 to `end` (and, with `then`, a second one starting there)."""
    builder = WaterfallBuilder()
    builder.add(0, "tool_start", 0.0, None, name)
    builder.add(1, "tool_end", end, None, name)
    if then is not None:
        builder.add(2, "tool_start", then, None, "next")
        builder.add(3, "tool_end", 6.0, None, "next")
    waterfall = builder.waterfall()
    return lane_row(waterfall, "tool 1", lane_cells(waterfall, 0, Window(0.0, 6.0, width)), cursor, None).plain[9:]


def test_a_name_too_long_for_its_bar_is_written_whole_after_it_where_there_is_room():
    # A 10-cell bar cannot hold "get_weather call_bj" (it used to read "get_weather"): written after it.
    row = one_bar_row(1.0, "get_weather call_bj")
    assert row.startswith("█" * 10 + " get_weather call_bj")
    # A name that fits stays inside its bar.
    assert one_bar_row(3.0, "short").startswith("█short███")
    # No room after it (the next bar starts at once): its last words inside (the call id tells the bars
    # apart; "get_weath" was half a word), never drawn over the next bar nor touching it.
    crowded = one_bar_row(1.0, "get_weather call_bj", then=1.2)
    assert crowded.startswith("█call_bj██ █next") and "get_weath" not in crowded
    # The time cursor's ┊ in the empty cells does not push the name back into its bar (the axis's ▼ has the time).
    assert one_bar_row(1.0, "get_weather call_bj", cursor=15).startswith("█" * 10 + " get_weather call_bj")
    assert one_bar_row(1.0, "x", cursor=40)[40] == "┊"


async def test_under_lang_zh_the_panes_own_words_are_chinese_and_the_traces_are_kept(tmp_path):
    app = debugger(shutil.copy(FIXTURES / "parallel_tools.jsonl", tmp_path / "parallel.jsonl"))
    app.requested_lang = "zh"  # what `loopscope debug TRACE --lang zh` asks for
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(WaterfallPane)
        await pilot.press("w")
        await settle(pilot, lambda: pane.waterfall is not None)
        assert pane.border_title == "瀑布图 · 4 条泳道"
        assert rows(pane)[-1].startswith("事件 0 不在任何条上")
        await pilot.press("right", "right", "right")  # the second tool call (call_sh)
        await settle(pilot)
        detail = rows(pane)[-1]
        assert detail.startswith("工具 get_weather call_sh · ") and "事件 7–" in detail
        assert "event" not in detail and "tool " not in detail
