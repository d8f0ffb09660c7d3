"""Every recorded fixture opens, and every pane renders at every event without an error."""

from __future__ import annotations

import pytest

from tests.helpers.paths import FIXTURES, ROOT
from tracer.debug.stepping import Motion
from tracer.trace.reader import load_trace
from tracer.tui.launch import build_session
from tracer.tui.views.detail_view import detail_text
from tracer.tui.views.event_summary import summary_text
from tracer.tui.views.prompt_view import prompt_text
from tracer.tui.views.variables_view import variables_text

FIXTURE_FILES = sorted(FIXTURES.glob("*.jsonl"))


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda path: path.stem)
def test_every_pane_renders_at_every_event(fixture, tmp_path):
    copy = tmp_path / fixture.name
    copy.write_bytes(fixture.read_bytes())
    session = build_session(copy)
    assert len(session) > 0
    for position in range(len(session)):
        session.goto(position)
        event = session.event()
        assert summary_text(event).plain
        assert detail_text(event).plain.startswith("kind")
        assert variables_text(session).plain
        header, _body = prompt_text(session)
        assert header.plain
        loop_frames = [frame for frame in session.frames() if not frame.callee]  # a user's tool is shown below
        assert loop_frames[-1].function == event.frames[-1]
    session.goto(0)
    for motion in Motion:
        session.land(session.motion(motion, 1).advance(), motion, 1)
    assert session.position == len(session) - 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_langgraph_runs_question_and_answer_head_its_timeline_in_both_languages(lang):
    # The Chinese rows once read only an AgentExecutor's "input"/"output": a graph run's were blank and a dict.
    events = load_trace(FIXTURES / "langchain" / "retry_jitter.jsonl")[1]
    first, last = summary_text(events[0], lang=lang).plain, summary_text(events[-1], lang=lang).plain
    assert "What is the weather like in Beijing today?" in first
    assert "Sorry, I could not get Beijing's weather" in last and "messages" not in last


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_imported_run_without_a_question_or_answer_says_so_rather_than_leaving_a_blank(lang):
    events = load_trace(ROOT / "tests" / "data" / "langfuse" / "openai-agents-2025-09-30.json")[1]
    first, last = summary_text(events[0], lang=lang).plain, summary_text(events[-1], lang=lang).plain
    assert first.endswith("(none in the inputs)" if lang == "en" else "（输入里没有）")
    assert last.endswith("(empty)" if lang == "en" else "（空）")
