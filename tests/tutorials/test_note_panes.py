"""Narration only points at panes that exist, and a stop that points at a tabbed pane shows it."""

from __future__ import annotations

import re

import pytest

from tests.helpers.pane_refs import ALWAYS_SHOWN, hidden_panes, referenced
from tests.helpers.pilot_helpers import settle
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.messages import Redraw
from tutorials.notes_file import PANE_OPTIONS
from tutorials.registry import TUTORIALS

ANY_PANE = re.compile(r"(?:call stack|\b\w+) pane\b|\w*窗格", re.IGNORECASE)
KNOWN_PANES = {"prompt pane", "variables pane", "detail pane", "call stack pane", "source pane", "narration pane"}

NOTES = [(name, note) for name, tutorial in TUTORIALS.items() for note in tutorial.notes.notes]


@pytest.mark.parametrize("name,note", NOTES, ids=[f"{n}:{note.id}" for n, note in NOTES])
def test_every_pane_a_note_points_at_exists_and_is_shown_at_its_stop(name, note):
    assert note.pane in PANE_OPTIONS
    for lang, text in note.texts.items():
        for mention in ANY_PANE.findall(text):
            if lang == "en":
                assert mention.lower() in KNOWN_PANES, f"{name}:{note.id} names a pane that does not exist: {mention}"
        named = referenced(text) | ({"prompt"} if note.show == "prompt_diff" else set())  # it talks about the prompt
        tabbed = named - ALWAYS_SHOWN
        assert len(tabbed) <= 1, f"{name}:{note.id} ({lang}) points at two tabbed panes: {tabbed}"
        assert tabbed == ({note.pane} if note.pane else set()), (
            f"{name}:{note.id} ({lang}) points at {tabbed or 'no tabbed pane'} but shows {note.pane or 'none'}"
        )
        if note.pane:
            assert "source" not in named, f"{name}:{note.id}: the narration hides the source at this stop"
    assert referenced(note.texts["en"]) - {"timeline"} == referenced(note.texts["zh"]) - {"timeline"}


@pytest.mark.slow  # drives the Textual debugger
async def test_a_stop_that_points_at_the_prompt_pane_shows_it_with_the_narration_above():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("space")  # stop 2: round 1's plan, "look at it in the prompt pane"
        await settle(pilot)
        assert app.session.current_stop()[1].pane == "prompt"
        assert app.screen.query_one("#tabs").active == "prompt"
        assert app.screen.query_one("#stop-text").display and "prompt pane" in app.screen.query_one("#stop-text").plain
        await pilot.press("5")  # the narration tab still opens on request
        await settle(pilot)
        assert app.screen.query_one("#tabs").active == "narration"
        await pilot.press("space")
        await settle(pilot)
        assert not app.screen.query_one("#stop-text").display and app.screen.query_one("#source").display


@pytest.mark.slow  # drives the Textual debugger
async def test_a_redraw_that_comes_between_the_move_and_its_own_keeps_the_stops_pane():
    # CI saw it: a redraw already queued (the app still starting) ran after space moved to stop 2 and
    # before space's own redraw, spending the stop's arrival; that redraw's "narration" then hid the pane.
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.post_message(Redraw())
        screen.stepping.tutorial_stop(1)  # the move, then its own redraw behind the one queued
        await settle(pilot)
        assert app.session.current_stop()[1].pane == "prompt"
        assert screen.tabs.active == "prompt"


STATES = ("planning", "acting", "observing", "summarizing", "finished")


@pytest.mark.parametrize("name,note", NOTES, ids=[f"{n}:{note.id}" for n, note in NOTES])
def test_chinese_notes_name_states_and_panes_as_the_chinese_screen_shows_them(name, note):
    """The status line says 行动 and the tabs say 提示词: a note saying `acting` or `Prompt 窗格` points at
    words that are not on the screen."""
    text = re.sub(r"`[^`]*`", "", note.texts["zh"])  # code in backticks is named as it is written
    assert not re.findall(rf"(?<![\w.])(?:{'|'.join(STATES)})(?![\w])", text), f"{name}:{note.id}"
    assert not re.findall(r"(?i)(?:prompt|variables|detail|narration|breakpoints) ?(?:窗格|面板)", text)


@pytest.mark.slow  # walks every tutorial in the Textual debugger
@pytest.mark.parametrize("name", list(TUTORIALS))
async def test_every_pane_a_stop_talks_about_is_on_screen_when_the_stop_is_reached(name):
    hidden = []
    for number in range(len(TUTORIALS[name].parts)):
        app = DebuggerApp(tutorial_session(name, number, "en"))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            for stop in range(len(app.session.stops)):
                hidden += [f"part {number + 1} stop {stop + 1}: {why}" for why in hidden_panes(app)]
                await pilot.press("space")
                await settle(pilot)
    assert hidden == []
