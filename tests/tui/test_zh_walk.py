"""Every tutorial walked in Chinese at 80 and 120 columns: no English chrome word on screen, no Latin word cut in two."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from tests.helpers.pilot_helpers import settle
from tests.helpers.screen_text import allowed_words, cut_words, foreign_words, screen_rows
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.source_view import SourceView
from tracer.tui.panes.text_pane import TextPane
from tutorials.registry import TUTORIALS

SIZES = [(80, 24), (120, 40)]
TABS = ("1", "2", "3", "5")  # variables, prompt, detail, narration


def _wrapped_lines(widget: Static) -> list[str]:
    return [strip.text.rstrip() for strip in widget.render_lines(widget.region.reset_offset)]


def cut_words_on_screen(app) -> list[str]:
    """Words cut in two by a line break in any text pane shown."""
    cut = []
    for pane in app.screen.query(TextPane):
        if pane.display and pane.region.area and pane.plain:
            cut += [
                f"#{pane.id}: {word}" for word in cut_words(_wrapped_lines(pane.body), pane.plain, pane.body.size.width)
            ]
    return cut


async def walk(name: str, lang: str, size: tuple[int, int], check) -> None:
    """Every stop of every part of a tutorial, each tab looked at; `check(app, where)` at each."""
    for number in range(len(TUTORIALS[name].parts)):
        app = DebuggerApp(tutorial_session(name, number, lang))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            for stop in range(len(app.session.stops)):
                where = f"{name} part {number + 1} stop {stop + 1} (event {app.session.position})"
                check(app, where)
                for key in TABS:
                    await pilot.press(key)
                    await settle(pilot)
                    check(app, f"{where} tab {key}")
                await pilot.press("space")
                await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", list(TUTORIALS))
async def test_a_chinese_walk_shows_no_english_chrome_and_cuts_no_word(name, size):
    allowed = allowed_words(name, "zh")
    problems: list[str] = []

    def check(app, where: str) -> None:
        foreign = foreign_words(screen_rows(app, without=(SourceView,)), allowed)
        problems.extend(f"{where}: English {word!r} in: {row}" for word, row in foreign)
        problems.extend(f"{where}: cut word {word}" for word in cut_words_on_screen(app))

    await walk(name, "zh", size, check)
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:40])
