"""The footer draws the screen's shown keys on one line, and a click on a key presses it."""

from __future__ import annotations

from tests.helpers.pilot_helpers import debugger, settle
from tracer.tui.panes.keys_footer import KeysFooter

SIZE = (120, 40)


def _span(footer: KeysFooter, key: str) -> tuple[int, int]:
    return next((start, end) for start, end, bound in footer._spans if bound == key)


async def test_the_footer_shows_each_shown_key_once_with_its_description(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = footer.render().plain
        assert line.startswith(" s step  n next  r step out  c continue ")
        assert line.count(" s ") == 1 and "step back" not in line, "keys bound with show=False stay out"
        assert [key for _start, _end, key in footer._spans][:4] == ["s", "n", "r", "c"]


async def test_a_click_on_a_key_in_the_footer_presses_it_and_a_click_between_keys_does_nothing(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        start, _end = _span(footer, "s")
        await pilot.click(KeysFooter, offset=(start + 1, 0))
        await settle(pilot)
        assert app.session.position == 1, "the click stepped"
        last = footer._spans[-1][1]
        await pilot.click(KeysFooter, offset=(last + 2, 0))  # past the last key: nothing is pressed
        await settle(pilot)
        assert app.session.position == 1


async def test_a_key_that_does_not_fit_whole_is_left_out_not_cut(rose):
    for width in (72, 80, 99, 104, 120):
        app = debugger(rose)
        async with app.run_test(size=(width, 30)) as pilot:
            await settle(pilot)
            footer = app.screen.query_one(KeysFooter)
            line = footer.render().plain
            assert len(line) <= width and footer._spans and footer._spans[-1][1] == len(line), width
            described = [line[start:end].split(None, 1) for start, end, _key in footer._spans]
            assert all(len(words) == 2 for words in described), (width, line)  # every key with its words
            assert " ? help" in line and " q quit" in line, (width, line)
