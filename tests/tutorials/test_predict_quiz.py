"""The quiz's rules (when a question is due, what stays hidden, never asked twice) and the learner's score file."""

from __future__ import annotations

import json

import pytest

from tracer.trace.reader import load_trace
from tutorials.predict import PredictQuiz, PredictStop, predict_stops, questions_of
from tutorials.predict_scores import read_scores, record_answer, score_of, scores_path
from tutorials.registry import TUTORIALS

QUESTIONS = [(name, q) for name in TUTORIALS for q in questions_of(name)]


def stop(seq: int, hidden_from: int | None = None, qid: str = "") -> PredictStop:
    return PredictStop(seq, seq if hidden_from is None else hidden_from, qid or f"q{seq}", "?", ("a", "b"), 1, "w")


def test_a_question_is_due_when_a_move_forward_would_show_its_first_hidden_event():
    quiz = PredictQuiz([stop(3, 2), stop(7), stop(10)])
    assert [s.id for s in quiz.due(0, 1)] == []
    assert [s.id for s in quiz.due(1, 2)] == ["q3"]  # onto the reply that gives it away
    assert [s.id for s in quiz.due(0, 22)] == ["q3"]  # a long move is held at the first one
    assert [s.id for s in quiz.due(2, 9)] == ["q7"]  # already past q3's first hidden event: not asked
    assert quiz.due(5, 3) == []  # backwards


def test_an_answered_question_is_never_due_again_and_its_verdict_covers_its_hidden_events():
    quiz = PredictQuiz([stop(3, 2), stop(7)])
    first = quiz.stops[0]
    assert quiz.horizon(0) == 2
    assert quiz.answer(first, 0) is False and quiz.answer(quiz.stops[1], 1) is True
    assert quiz.due(0, 22) == [] and quiz.horizon(0) is None
    assert [s.id for s, _ in quiz.answered_at(2)] == ["q3"] == [s.id for s, _ in quiz.answered_at(3)]
    assert quiz.answered_at(1) == [] and quiz.answered_at(4) == []


def test_two_questions_about_one_event_are_due_together_in_order():
    quiz = PredictQuiz([stop(22, qid="first"), stop(22, qid="second"), stop(25)])
    assert [s.id for s in quiz.due(10, 30)] == ["first", "second"]


@pytest.mark.parametrize(("name", "question"), QUESTIONS, ids=[f"{n}:{q.id}" for n, q in QUESTIONS])
def test_the_reply_that_decides_an_action_is_hidden_with_it(name, question):
    """A question about an agent_action is asked before the model's reply that names the tool; else the
    reply on screen would give the answer away."""
    part = next(p for p in TUTORIALS[name].parts if p.name == question.part)
    events = load_trace(part.fixture)[1]
    (asked,) = [s for s in predict_stops(part.name, "en", events) if s.id == question.id]
    assert asked.hidden_from >= 1
    if events[asked.seq].kind == "agent_action":
        replies = [e.seq for e in events[: asked.seq] if e.kind == "llm_end"]
        assert replies and replies[-1] >= asked.hidden_from, f"{question.id}: the reply at {replies[-1]} is shown"


def test_scores_keep_each_questions_latest_answer_in_the_learners_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert scores_path() == tmp_path / "loopscope" / "predict-scores.json"
    assert score_of("rose-pricing", read_scores()) is None
    record_answer("rose-pricing", "first-tool", False)
    score = record_answer("rose-pricing", "first-check", True)
    assert (score.right, score.asked) == (1, 2)
    score = record_answer("rose-pricing", "first-tool", True)  # answered again: the latest counts
    assert (score.right, score.asked) == (2, 2)
    assert score_of("invalid-tool", read_scores()) is None


def test_a_broken_or_foreign_scores_file_reads_as_no_answers_and_unknown_questions_do_not_count(tmp_path):
    path = tmp_path / "scores.json"
    path.write_text("{not json", encoding="utf-8")
    assert read_scores(path) == {}
    path.write_text(json.dumps({"tutorials": {"rose-pricing": {"gone": True, "first-tool": "yes"}}}), encoding="utf-8")
    assert score_of("rose-pricing", read_scores(path)) is None
    record_answer("rose-pricing", "first-tool", True, path)
    assert score_of("rose-pricing", read_scores(path)) is not None
    assert read_scores(path)["rose-pricing"]["first-tool"] is True
