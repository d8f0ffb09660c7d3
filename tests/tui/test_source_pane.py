"""The source pane's title says where the shown line is, in the chrome's language; at a stop it names the pane below."""

from __future__ import annotations

import threading

import pytest

from tests.helpers.pilot_helpers import debugger, settle
from tracer.debug.reenactment import Reenactment
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.source_view import SourceView
from tutorials.registry import TUTORIALS

SIZE = (120, 40)


def title(app) -> str:
    return str(app.screen.query_one("#source-pane").border_title)


async def test_a_stop_that_shows_the_prompt_names_it_in_the_tutorials_language():
    for lang, words in (("en", "Narration · the prompt pane is below"), ("zh", "讲解 · 下方是提示词窗格")):
        app = DebuggerApp(tutorial_session("rose-pricing", 0, lang))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("s")  # stop 2 points at the prompt pane
            await settle(pilot)
            assert title(app) == words and app.screen.tabs.active == "prompt"


async def test_a_callers_line_found_in_the_source_says_so_in_chinese(monkeypatch, rose):
    release = threading.Event()
    advance = Reenactment.advance
    monkeypatch.setattr(Reenactment, "advance", lambda self, *a, **k: release.wait(30) and advance(self, *a, **k))
    app = debugger(rose)
    app.requested_lang = "zh"
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.press(
                "s", "u"
            )  # plan(), the caller of the model call, while the real frames are still held back
            await pilot.pause()
            assert title(app).startswith("plan() · ") and title(app).endswith(" · 调用方行号由源码推断")
            assert "inferred" not in title(app)
        finally:
            release.set()
        await settle(pilot)
        assert "调用方行号由源码推断" not in title(app)  # the re-executed run knows the caller's real line


@pytest.mark.parametrize("name", ["context-budget", "rose-pricing"])
async def test_the_marked_line_sits_in_the_middle_half_of_the_source_pane_at_every_event(name):
    app = DebuggerApp(tutorial_session(name, len(TUTORIALS[name].parts) - 1, "en"))
    off_centre = []
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.screen.query_one(SourceView)
        for position in range(len(app.session)):
            app.session.goto(position)
            app.screen.refresh_panes()
            await settle(pilot)
            height, line = view.scrollable_content_region.height, view.current_line
            if not view.display or line is None or view.max_scroll_y == 0:
                continue
            row = line - 1 - view.scroll_y
            at_an_end = view.scroll_y in (0, view.max_scroll_y)
            if not height // 4 <= row < height - height // 4 and not at_an_end:
                off_centre.append((position, line, row, height))
    assert off_centre == []  # context-budget's event 24 sat on the pane's second-last row


async def test_a_line_shown_while_the_pane_is_hidden_is_centred_once_the_pane_is_back():
    """A tutorial stop hides the source for its narration; the next event shows it again. Asked to centre before
    the pane had its height back (CI's load gave that order), the line sat on the pane's top row."""
    app = DebuggerApp(tutorial_session("rose-pricing", len(TUTORIALS["rose-pricing"].parts) - 1, "en"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.screen.query_one(SourceView)
        source, line = view.source, view.current_line
        assert source is not None and line is not None and len(source.lines) > 100
        view.display = False
        await settle(pilot)
        target = 120 if abs(line - 120) > 40 else len(source.lines) - 60
        view.show(source, target, {})  # its centring runs while the pane has no height
        await settle(pilot)
        view.display = True
        await settle(pilot)
        height = view.scrollable_content_region.height
        row = target - 1 - view.scroll_y
        assert height // 4 <= row < height - height // 4, (target, view.scroll_y, height)
