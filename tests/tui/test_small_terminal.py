"""Every tutorial at 80x24, in both languages: nothing a learner needs is lost to the small screen."""

from __future__ import annotations

import re

import pytest
from textual.widgets import TabbedContent

from tests.helpers.pane_refs import hidden_panes
from tests.helpers.pilot_helpers import settle
from tests.helpers.screen_text import cut_words, screen_rows
from tests.tui.test_zh_walk import _wrapped_lines
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.call_stack import CallStackPane
from tracer.tui.panes.status_line import StatusLine
from tracer.tui.panes.text_pane import TextPane
from tracer.tui.panes.timeline import EventTimeline
from tutorials.registry import TUTORIALS

SIZE = (80, 24)
FOOTER_MUST = {"en": ("? help", "q quit"), "zh": ("? 帮助", "q 退出")}
LANE_KINDS = re.compile(
    r"[●✗│]+ +(tool_start|tool_end|tool_error|invalid_tool|retry|calculator_eval|llm_start|llm_end)\b"
)


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _rows_of(app, widget) -> list[str]:
    rows = screen_rows(app)
    region = widget.region
    return [row[region.x : region.right] for row in rows[region.y : region.bottom]]


def losses(app, lang: str) -> list[str]:
    """What the screen lost at this stop, in words."""
    found = []
    rows = screen_rows(app)
    footer = rows[-1]
    found += [f"footer lost {keys!r}: {footer.strip()}" for keys in FOOTER_MUST[lang] if keys not in footer]
    status = app.screen.query_one(StatusLine)
    shown = _squeezed("".join(_wrapped_lines(status)))
    if shown != _squeezed(status.plain)[: len(shown)] or len(shown) < len(_squeezed(status.plain)):
        found.append(f"status cut: {status.plain}")
    found += [f"narration cut without a hint: #{pane.id}" for pane in _narration_panes(app) if _cut_silently(pane)]
    for pane in app.screen.query(TextPane):
        if pane.display and pane.region.area and pane.plain:
            found += [
                f"#{pane.id} cut a word: {word}"
                for word in cut_words(_wrapped_lines(pane.body), pane.plain, pane.body.size.width)
            ]
    timeline = app.screen.query_one(EventTimeline)
    for row in screen_rows(app)[timeline.region.y : timeline.region.bottom]:
        lane = row[timeline.region.x : timeline.region.right]
        if re.search(r"[●✗]", lane) and not LANE_KINDS.search(lane):
            found.append(f"lane row lost its kind: {lane.strip()}")
    stack = app.screen.query_one(CallStackPane)
    for line in _rows_of(app, stack)[1:-1]:
        if line.strip("│ ") and not re.search(r":\d+|行号未知|line unknown", line):
            found.append(f"stack line lost its line number: {line.strip()}")
    if app.session.frames() and not any("←" in line for line in _rows_of(app, stack)):
        found.append("stack lost the event's marker")
    return found + hidden_panes(app)


def _narration_panes(app) -> list[TextPane]:
    stop_text = app.screen.query_one("#stop-text", TextPane)
    if stop_text.display:
        return [stop_text]
    tabs = app.screen.query_one(TabbedContent)
    return [app.screen.query_one("#narration-text", TextPane)] if tabs.active == "narration" else []


def _cut_silently(pane: TextPane) -> bool:
    _above, below = pane.hidden_lines
    return bool(below) and not pane.more.display


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(TUTORIALS))
async def test_every_stop_keeps_what_matters_on_an_80x24_terminal(name, lang):
    problems: list[str] = []
    for number in range(len(TUTORIALS[name].parts)):
        app = DebuggerApp(tutorial_session(name, number, lang))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for stop in range(len(app.session.stops)):
                where = f"{name} part {number + 1} stop {stop + 1} (event {app.session.position})"
                problems += [f"{where}: {problem}" for problem in losses(app, lang)]
                await pilot.press("space")
                await settle(pilot)
            await settle(pilot)
            problems += [f"{name} part {number + 1} after the last stop: {p}" for p in losses(app, lang)[:3]]
    assert not problems, f"{len(problems)} losses:\n" + "\n".join(problems[:40])


async def test_the_focused_pane_scrolls_and_a_stop_that_shows_the_prompt_scrolls_the_prompt():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        narration = app.screen.query_one("#narration-text", TextPane)
        assert narration.hidden_lines[1] and narration.more.display  # stop 1 does not fit at 80x24
        for _ in range(20):
            await pilot.press("j")
        await settle(pilot)
        assert narration.hidden_lines[1] == 0 and not narration.more.display  # read to its end with j
        await pilot.press("space")  # stop 2: the narration above, the prompt pane below
        await settle(pilot)
        prompt = app.screen.query_one("#prompt-text", TextPane)
        stop_text = app.screen.query_one("#stop-text", TextPane)
        for _ in range(10):  # the narration above is read first, then j/k move on to the prompt
            if not stop_text.hidden_lines[1]:
                break
            await pilot.press("j")
            await settle(pilot)
        read_to = stop_text.hidden_lines[0]
        above = prompt.hidden_lines[0]
        await pilot.press("k")
        await settle(pilot)
        assert prompt.hidden_lines[0] < above and stop_text.hidden_lines[0] == read_to  # k moved the prompt
        await pilot.press("tab")  # the narration above takes the focus: j/k are its now
        await settle(pilot)
        assert app.screen.focused is stop_text and stop_text.has_class("jk-target")  # marked as j/k's
        await pilot.press("k")
        await settle(pilot)
        assert stop_text.hidden_lines[0] < read_to
