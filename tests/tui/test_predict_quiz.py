"""Predict, then step: the question comes before its event, a number key answers, the verdict and score follow."""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList

from tests.helpers.pilot_helpers import said, settle
from tests.helpers.screen_text import allowed_words, foreign_words, screen_rows
from tracer.debug.options import DebuggerOptions
from tracer.tui.app import DebuggerApp
from tracer.tui.flows.tutorials import tutorial_session
from tracer.tui.panes.predict_pane import PredictPane
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.screens.main_screen import DebuggerScreen
from tracer.tui.screens.predict_screen import PredictScreen
from tracer.tui.screens.tutorial_picker import TutorialPicker
from tutorials.predict_scores import scores_path

SIZE = (120, 40)
PREDICTING = DebuggerOptions(predict=True)


@pytest.fixture(autouse=True)
def learner_folder(tmp_path, monkeypatch):
    """The learner's scores go to a folder of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def asking(app) -> bool:
    return isinstance(app.screen, PredictScreen)


def on_screen(app) -> str:
    """The screen as the learner sees it, row by row."""
    return "\n".join(screen_rows(app))


def verdict_shown(app) -> bool:
    return app.screen.query_one(PredictPane).display


async def space_until(pilot, condition, limit: int = 30) -> None:
    for _ in range(limit):
        if condition():
            return
        await pilot.press("space")
        await settle(pilot)
    assert condition()


async def test_answers_by_keys_one_wrong_one_right_then_the_score_is_in_the_picker(tmp_path):
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en", PREDICTING))
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        await space_until(pilot, lambda: asking(app))
        # Held before the reply that names the tool: the timeline has not moved onto it, its rows are hidden.
        assert session.position == 1
        timeline = app.screen_stack[-2].query_one(EventTimeline)
        assert timeline.hidden_from == 2
        question = on_screen(app)
        assert "Which tool will its first action name?" in question
        assert "1. " in question and "Calculator" in question and "2. " in question and "Search" in question
        await pilot.press("1")  # wrong: Calculator
        await settle(pilot, lambda: not asking(app))
        assert session.position == 2  # the event is shown now
        shown = on_screen(app)
        assert "✗ you said 1; the answer is 2. Search" in shown
        assert "only Search can find one" in shown and "does not have yet" in shown  # the two lines of why
        assert said(app) == "predict: 0/1 right"

        # Back and forward again: an answered question is never asked twice.
        await pilot.press("backspace")
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)
        assert not asking(app) and session.position == 2

        await space_until(pilot, lambda: asking(app))
        assert session.position == 6 and "isinstance(output, AgentFinish)" in on_screen(app)
        await pilot.press("2")  # right: False
        await settle(pilot, lambda: not asking(app))
        assert session.position == 7
        assert "✓ right: 2. False" in on_screen(app)
        assert said(app) == "predict: 1/2 right"
        await pilot.press("s")
        await settle(pilot)
        assert not verdict_shown(app)  # the verdict belongs to its event

        await pilot.press("T")
        await settle(pilot, lambda: isinstance(app.screen, TutorialPicker))
        options = app.screen.query_one(OptionList)
        rose = options.get_option("rose-pricing")
        with app.console.capture() as captured:
            app.console.print(rose.prompt, width=100)
        assert "predict 1/2 right" in captured.get()
        with app.console.capture() as captured:
            app.console.print(options.get_option("invalid-tool").prompt, width=100)
        assert "predict" not in captured.get()  # never answered: no score
    kept = json.loads(scores_path().read_text(encoding="utf-8"))
    assert kept["tutorials"]["rose-pricing"] == {"first-tool": False, "first-check": True}


async def test_escape_keeps_the_event_hidden_and_the_next_step_asks_again():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en", PREDICTING))
    async with app.run_test(size=SIZE) as pilot:
        await space_until(pilot, lambda: asking(app))
        await pilot.press("escape")
        await settle(pilot, lambda: not asking(app))
        assert app.session.position == 1 and "event 2 stays hidden" in said(app)
        await pilot.press("s")
        await settle(pilot, lambda: asking(app))
        assert app.session.position == 1


async def test_without_predict_nothing_is_asked_and_p_turns_it_on():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "en"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space", "space")
        await settle(pilot)
        assert app.session.position == 3 and not asking(app)
        assert app.screen.query_one(EventTimeline).hidden_from is None
        await pilot.press("p")
        await settle(pilot)
        assert said(app) == "predict on · questions ahead: 3"
        await pilot.press("c")  # continue would run to the end; predict stops it before the next question
        await settle(pilot, lambda: asking(app))
        assert app.session.position == 6
        await pilot.press("escape", "p")
        await settle(pilot)
        assert said(app) == "predict off: no questions"
        await pilot.press("c")
        await settle(pilot)
        assert app.session.position == len(app.session) - 1 and not asking(app)


async def test_the_chinese_question_and_verdict_speak_chinese():
    app = DebuggerApp(tutorial_session("rose-pricing", 0, "zh", PREDICTING))
    async with app.run_test(size=(80, 24)) as pilot:
        await space_until(pilot, lambda: asking(app))
        question = on_screen(app)
        assert "预测 1/4 · 接下来会怎样？" in question and "它的第一个动作会点哪个工具？" in question
        assert "作答" in question
        allowed = allowed_words("rose-pricing", "zh")
        assert foreign_words(screen_rows(app), allowed) == []
        await pilot.press("2")
        await settle(pilot, lambda: not asking(app))
        assert "✓ 答对了：2. Search" in on_screen(app)
        assert foreign_words(screen_rows(app), allowed) == []
        assert said(app, "zh") == "预测：答对 1/1"
        assert isinstance(app.screen, DebuggerScreen)
