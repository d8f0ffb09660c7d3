"""Predict questions: at least three per tutorial, en and zh, each answer key held against the recorded event."""

import dataclasses
import re

import pytest

from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace
from tutorials.notes_file import LANGUAGES, NotesFileError
from tutorials.predict import (
    PredictQuestion,
    event_value,
    predict_stops,
    predicted_event,
    questions_of,
    value_matches,
)
from tutorials.registry import TUTORIALS, Tutorial

CJK = re.compile(r"[\u4e00-\u9fff]")
QUESTIONS = [(name, q) for name in TUTORIALS for q in questions_of(name)]


def events_of(name: str, part_name: str):
    part = next(p for p in TUTORIALS[name].parts if p.name == part_name)
    return load_trace(part.fixture)[1]


def answer_fits_the_recording(name: str, question: PredictQuestion) -> bool:
    """The question's event is in its fixture, its stated answer is that event's value, and no other choice is."""
    event, _ = predicted_event(question, events_of(name, question.part))
    if event is None:
        return False
    actual = event_value(event, question.field)
    right = [i for i, claimed in enumerate(question.values) if value_matches(actual, claimed)]
    return right == [question.answer]


@pytest.mark.parametrize("name", list(TUTORIALS))
def test_every_tutorial_has_at_least_three_questions(name):
    assert len(questions_of(name)) >= 3


@pytest.mark.parametrize(("name", "question"), QUESTIONS, ids=[f"{n}:{q.id}" for n, q in QUESTIONS])
def test_each_answer_is_what_the_recorded_event_says(name, question):
    assert answer_fits_the_recording(name, question), (
        f"{name}: {question.id}: the fixture's {question.field} is not choice {question.answer + 1}"
    )


@pytest.mark.parametrize(("name", "question"), QUESTIONS, ids=[f"{n}:{q.id}" for n, q in QUESTIONS])
def test_a_wrong_answer_key_is_caught(name, question):
    for wrong in range(len(question.values)):
        if wrong != question.answer:
            assert not answer_fits_the_recording(name, dataclasses.replace(question, answer=wrong))


@pytest.mark.parametrize(("name", "question"), QUESTIONS, ids=[f"{n}:{q.id}" for n, q in QUESTIONS])
def test_both_languages_are_there_and_the_why_is_at_most_two_lines(name, question):
    for lang in LANGUAGES:
        assert len(question.choices[lang]) == len(question.values) >= 2
        assert 1 <= len(question.whys[lang].splitlines()) <= 2
    assert CJK.search(question.questions["zh"]) and CJK.search(question.whys["zh"])
    assert not CJK.search(question.questions["en"] + question.whys["en"])


def test_a_question_whose_event_is_missing_names_itself(tmp_path):
    notes = tmp_path / "fake.toml"
    notes.write_text(
        TUTORIALS["rose-pricing"].notes_path.read_text()
        + '\n[[predict]]\nid = "never"\nkind = "limit_reached"\nfield = "kind"\nvalues = ["a", "b"]\nanswer = 1\n'
        '[predict.en]\nquestion = "q"\nwhy = "w"\n[predict.zh]\nquestion = "问"\nwhy = "答"\n'
    )

    class Fake(Tutorial):
        @property
        def notes_path(self):
            return notes

    fake = Fake("fake", ("rose-pricing",))
    TUTORIALS["fake"] = fake
    try:
        with pytest.raises(NotesFileError, match="predict 'never' expects the 1st limit_reached event"):
            predict_stops("fake", "en", events_of("rose-pricing", "rose-pricing"))
    finally:
        del TUTORIALS["fake"]
        questions_of.cache_clear()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_predict_print_asks_each_question_before_its_event_and_answers_after(capsys, lang):
    code, out, _ = loopscope(capsys, "tutorial", "rose-pricing", "--predict", "--print", "--lang", lang)
    assert code == 0
    events = events_of("rose-pricing", "rose-pricing")
    stops = predict_stops("rose-pricing", lang, events)
    assert len(stops) >= 3
    position = 0
    for stop in stops:
        asked = out.index(stop.question.split()[0], position)
        for choice in stop.choices:
            assert choice.split()[0] in out[asked:]
        answered = out.index(("答案：" if lang == "zh" else "answer: ") + f"{stop.answer + 1}.", asked)
        assert stop.why.splitlines()[0].split()[0] in out[answered:]
        position = answered


def test_without_predict_the_walk_asks_nothing(capsys):
    out = loopscope(capsys, "tutorial", "rose-pricing", "--print", "--lang", "en")[1]
    assert "predict 1/" not in out and "answer: " not in out
