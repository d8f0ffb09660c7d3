"""What the newcomer's walk found on screen (issue 37): English left in Chinese boxes, words and file:lines
split across lines at 80x24, a cut tab name, and a waterfall label read twice."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from textual.geometry import Region

from tests.helpers.pilot_helpers import settle
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.panes.text_pane import TextPane
from tracer.tui.panes.waterfall_pane import WaterfallPane
from tracer.tui.screens.ask_screen import AskScreen
from tracer.tui.screens.help_screen import HelpScreen
from tracer.tui.screens.playground_screen import PlaygroundScreen

SMALL = (80, 24)


def _lines(widget) -> list[str]:
    return [strip.text.rstrip() for strip in widget.render_lines(widget.region.reset_offset)]


async def test_the_playground_speaks_chinese_in_its_hints_and_titles():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.session.goto(1)
        app.screen.refresh_panes()
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, PlaygroundScreen))
        recorded = app.screen.query_one("#playground-recorded", TextPane)
        assert recorded.lang == "zh"
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: app.screen.rerun is not None)
        new = app.screen.query_one("#playground-new", TextPane)
        title = str(new.border_title)
        assert "录下的回复" in title and "recording" not in title and "replayed" not in title
        new.update_more()
        hints = [str(pane.more.render()) for pane in (recorded, new) if pane.more.display]
        assert hints and all("下面还有" in hint and "more line" not in hint for hint in hints)


async def test_the_help_names_the_mouse_click_in_chinese():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "点击" in app.screen.plain and "click" not in app.screen.plain


async def test_the_breakpoint_box_never_splits_line_FILE_N_at_80x24():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot, lambda: isinstance(app.screen, AskScreen))
        lines = _lines(app.screen.query_one("#ask-hint"))
        assert len(lines) >= 2  # it does wrap here: the check below is not idle
        for word in ("line=[FILE:]N", "tool=NAME", "iteration=N", "method=NAME", "`ignore=N`"):
            assert any(word in line for line in lines), (word, lines)


async def test_the_status_lines_key_group_stays_on_one_line_at_80x24():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        status = app.screen.query_one(StatusLine)
        lines = _lines(status)
        assert len([line for line in lines if line]) >= 2  # wrapped: the group could have been split
        assert any("S\u00a0N\u00a0R\u00a0C" in line for line in lines), lines


async def test_a_tutorials_five_tab_names_show_whole_at_80x24_in_english():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        region = app.screen.query_one("#tabs Tabs").region
        strips = app.screen._compositor.render_strips()[region.y : region.bottom]
        shown = "".join(strip.crop(region.x, region.right).text for strip in strips)
        for name in ("Narration", "Variables", "Prompt", "Detail", "Breakpoints"):
            assert name in shown, shown
    wide = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with wide.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not wide.screen.query_one("#tabs").has_class("-tight")  # two spaces where they fit


async def test_each_bar_of_the_retries_lane_has_one_label():
    app = DebuggerApp(tutorial_session("tool-error", 2, "en"))
    for size in ((120, 40), SMALL):
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("w")
            pane = app.screen.query_one(WaterfallPane)
            await settle(pilot, lambda pane=pane: pane.waterfall is not None)
            rows = [pane._line(y, pane.scrollable_content_region.height).plain for y in range(pane.size.height)]
            waits = next(row for row in rows if row.startswith("waits"))
            assert "✗tool SupplierQuot✗" not in waits, waits
            for attempt in (1, 2, 3):
                assert waits.count(f"#{attempt}") == 1, waits
            # A label never runs into the next bar's mark: a bar cell or a blank comes first.
            assert all(waits[at - 1] in "█▓ " for at in range(10, len(waits)) if waits[at] == "✗"), waits
        app = DebuggerApp(tutorial_session("tool-error", 2, "en"))


def split_tokens(lines: list[str], plain: str) -> list[str]:
    """Latin tokens (a name, a file:line, `line=[FILE:]N`) that a line's end splits: the last token of a
    line and the first of the next stand side by side, with no space, in the unwrapped text."""
    found = []
    for line, after in pairwise(lines):
        head, tail = line.rstrip().split(" ")[-1], after.lstrip().split(" ")[0]
        latin = re.compile(r"[!-~]+")  # printable ASCII, no space: a CJK character ends a token
        end, start = latin.search(head[::-1]), latin.match(tail)
        if head and tail and end and end.start() == 0 and start:
            joined = head[len(head) - end.end() :] + start.group()
            whole = re.search(rf"(?<![!-~]){re.escape(joined)}(?![!-~])", plain)  # a token of its own there
            if whole and len(joined) < 40:
                found.append(f"{head[len(head) - end.end() :]}|{start.group()}")
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_help_splits_no_name_or_file_line_at_80x24(lang):
    app = DebuggerApp(tutorial_session("rose-pricing", 0, lang))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        body = app.screen.query_one("#help Static")
        lines = [strip.text.rstrip() for strip in body.render_lines(Region(0, 0, body.size.width, body.size.height))]
        assert any("agent_executor.py:" in line for line in lines)
        assert split_tokens(lines, app.screen.plain) == []


def test_the_split_check_finds_a_split_file_line():
    plain = "写 line=executor/agent_executor.py:224 这一行"
    assert split_tokens(["写 line=executor/agent_executor.", "py:224 这一行"], plain) == [
        "line=executor/agent_executor.|py:224"
    ]
    assert split_tokens(["写 line=executor/agent_executor.py:224", "这一行"], plain) == []
