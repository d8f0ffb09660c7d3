"""j/k scroll the pane whose hint says so, that pane is marked, and a prompt shorter than its pane starts at its top."""

from __future__ import annotations

import pytest

from tests.helpers.pilot_helpers import settle, until
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.text_pane import TextPane


async def _to_stop(pilot, app, number: int) -> None:
    """Press space until the session is at tutorial stop `number` (1-based)."""
    for _ in range(40):
        current = app.session.current_stop()
        if current is not None and current[0] == number and current[1].seq == app.session.position:
            return
        await pilot.press("space")
        await settle(pilot)
    raise AssertionError(f"never reached stop {number}")


def _shown_panes(app) -> list[TextPane]:
    return [pane for pane in app.screen.query(TextPane) if pane.is_on_screen]


def _hints(app) -> dict[str, str]:
    """Each shown pane's "more lines" hint, by pane id (panes without one left out)."""
    return {pane.id or "": str(pane.more.render()) for pane in _shown_panes(app) if pane.more.display}


def _direct(pane: TextPane) -> bool:
    """The pane's hint says j/k scroll it (not: tab there first)."""
    hint = str(pane.more.render())
    return pane.more.display and "j/k" in hint and "tab" not in hint


@pytest.mark.parametrize(("name", "stop"), [("parallel-tools", 1), ("langchain-retry", 2)])
async def test_a_prompt_that_fits_starts_at_its_top_with_no_blank_block_and_no_hint(name, stop):
    app = DebuggerApp(tutorial_session(name, 0, "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await _to_stop(pilot, app, stop)
        # The stop opens its pane once the panes are drawn: on a loaded machine a moment after the move.
        await until(pilot, lambda: app.screen.tabs.active == "prompt")
        await settle(pilot)
        prompt = app.screen.query_one("#prompt-text", TextPane)
        assert app.screen.tabs.active == "prompt" and prompt.max_scroll_y == 0  # it fits at 120x40
        # Textual's anchor scrolled it to -14: fourteen blank lines, then "↓ 14 more lines" j never reached
        assert prompt.scroll_y == 0 and prompt.body.region.y == prompt.content_region.y
        assert prompt.hidden_lines == (0, 0) and not prompt.more.display


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("name", "stop"), [("parallel-tools", 1), ("langchain-retry", 2)])
async def test_at_80x24_every_j_k_hint_is_kept_by_j_and_k(name, stop, lang):
    app = DebuggerApp(tutorial_session(name, 0, lang))
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_stop(pilot, app, stop)
        prompt = app.screen.query_one("#prompt-text", TextPane)
        assert prompt.scroll_y >= 0 and prompt.hidden_lines[0] + prompt.hidden_lines[1] == prompt.max_scroll_y
        for _ in range(30):  # read everything j reaches, checking each hint that says j/k on the way
            said = [pane for pane in _shown_panes(app) if _direct(pane)]
            if not said:
                break
            assert len(said) == 1, _hints(app)
            before = said[0].hidden_lines
            await pilot.press("j")
            await settle(pilot)
            assert said[0].hidden_lines != before, f"j did not move {said[0].id}: {_hints(app)}"
        assert not any("↓" in str(pane.more.render()) for pane in _shown_panes(app) if _direct(pane))
        assert prompt.hidden_lines[1] == 0  # the prompt's end (the reply) was reached with j alone
        above = prompt.hidden_lines[0]
        if above:
            await pilot.press("k")
            await settle(pilot)
            assert prompt.hidden_lines[0] < above  # and k goes back up it


async def test_j_k_scroll_the_pane_whose_hint_says_so_and_that_pane_is_marked():
    """rose-pricing --lang zh at 80x24, stop 9: the narration above does not fit, nor does the prompt below."""
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_stop(pilot, app, 9)
        narration = app.screen.query_one("#stop-text", TextPane)
        prompt = app.screen.query_one("#prompt-text", TextPane)
        assert narration.display and narration.hidden_lines[1] and prompt.max_scroll_y
        # The narration is read first: its hint says j/k and it is marked; the prompt's says tab.
        assert "j/k" in str(narration.more.render()) and "tab" in str(prompt.more.render())
        assert narration.has_class("jk-target") and not prompt.has_class("jk-target")
        prompt_before = prompt.hidden_lines
        await pilot.press("j")
        await settle(pilot)
        assert narration.hidden_lines[0] > 0 and prompt.hidden_lines == prompt_before
        for _ in range(10):
            if not narration.hidden_lines[1]:
                break
            await pilot.press("j")
            await settle(pilot)
        # Read to its end: j/k are the prompt's now, and the mark moved with them.
        assert prompt.has_class("jk-target") and not narration.has_class("jk-target")
        assert "k" in str(prompt.more.render()) and "tab" not in str(prompt.more.render())
        above = prompt.hidden_lines[0]
        await pilot.press("k")
        await settle(pilot)
        assert prompt.hidden_lines[0] < above
        # Tab to the narration: the focused pane is j/k's, and marked.
        await pilot.press("tab")
        await settle(pilot)
        assert app.screen.focused is narration and narration.has_class("jk-target")
        assert not prompt.has_class("jk-target") and "tab" in str(prompt.more.render())
        top = narration.hidden_lines[0]
        await pilot.press("k")
        await settle(pilot)
        assert narration.hidden_lines[0] < top
