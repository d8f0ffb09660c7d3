"""Predict questions: before an event is shown, the learner guesses it; each answer is checked by the event itself."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from executor.events import EventBase

from .notes_file import LANGUAGES, EventAnchor, NotesFileError, _Reader, reflow
from .registry import TUTORIALS, Tutorial, find_part


@dataclass(frozen=True)
class PredictQuestion:
    """One question of a tutorial's notes file (a `[[predict]]` table), in every language.

    `anchor` (plus `offset` events) is the event the question is about: ask it just before
    that event is shown.
    `field` names what of that event the choices guess ("kind", "tool", "is_finish", "delay", ...)
    and `values[i]` is what choice i claims it will be; `answer` is the index (0-based) of the
    right one. A test holds every key against the recorded event, so a wrong key fails.
    """

    id: str
    part: str
    anchor: EventAnchor
    offset: int  # the predicted event is this many after the anchored one (1: "what comes next?")
    field: str
    values: tuple[Any, ...]
    answer: int
    questions: Mapping[str, str]
    choices: Mapping[str, tuple[str, ...]]
    whys: Mapping[str, str]


@dataclass(frozen=True)
class PredictStop:
    """A question resolved on one run in one language: what a screen needs to ask it."""

    seq: int  # the event it predicts: ask before showing it, reveal with it
    id: str
    question: str
    choices: tuple[str, ...]
    answer: int  # 0-based index into choices
    why: str


def event_value(event: EventBase, field: str) -> Any:
    """The value of `field` of `event`; a dotted field walks into nested payloads ("action.tool")."""
    value: Any = event
    for name in field.split("."):
        value = value.get(name) if isinstance(value, dict) else getattr(value, name, None)
    return value


def predicted_event(question: PredictQuestion, events: Sequence[EventBase]) -> tuple[EventBase | None, int]:
    """The event `question` predicts (None when the run lacks it), and how many events its anchor matched."""
    anchored, matched = question.anchor.find(events)
    if anchored is None:
        return None, matched
    index = events.index(anchored) + question.offset
    return (events[index] if index < len(events) else None), matched


def value_matches(actual: Any, claimed: Any) -> bool:
    """Whether a recorded value is what a choice claims; waits are matched to 1% (they print rounded)."""
    if isinstance(claimed, float) and isinstance(actual, int | float) and not isinstance(actual, bool):
        return math.isclose(actual, claimed, rel_tol=0.01)
    return bool(actual == claimed)


class _QuestionReader(_Reader):
    def question(self, raw: dict[str, Any], index: int) -> PredictQuestion:
        qid = str(raw.get("id") or f"predict #{index + 1}")
        where = f"predict {qid!r}"
        part = raw.get("part", self.parts[0] if len(self.parts) == 1 else None)
        if part not in self.parts:
            raise self.fail(where, f"part {part!r} is not one of this tutorial's parts ({', '.join(self.parts)})")
        field, values, answer = raw.get("field"), raw.get("values"), raw.get("answer")
        offset = raw.get("offset", 0)
        if not isinstance(offset, int) or offset < 0:
            raise self.fail(where, "offset must be 0 or more: how many events after the anchored one")
        if not isinstance(field, str) or not field:
            raise self.fail(where, 'field must name what the choices guess, e.g. field = "tool"')
        if not isinstance(values, list) or len(values) < 2:
            raise self.fail(where, "values must list what each choice claims (two or more)")
        if not isinstance(answer, int) or not 1 <= answer <= len(values):
            raise self.fail(where, f"answer must be the number of the right choice, 1 to {len(values)}")
        questions, choices, whys = {}, {}, {}
        for lang in LANGUAGES:
            table = raw.get(lang)
            if not isinstance(table, dict) or not str(table.get("question", "")).strip():
                raise self.fail(
                    where, f"no {lang} question; every question needs one in each of {', '.join(LANGUAGES)}"
                )
            if not str(table.get("why", "")).strip():
                raise self.fail(where, f"no {lang} why: say in two lines why the answer is right")
            said = table.get("choices", [str(v) for v in values])  # tool names read the same in any language
            if not isinstance(said, list) or len(said) != len(values):
                raise self.fail(where, f"{lang} choices must be {len(values)}, one per value")
            questions[lang] = reflow(str(table["question"]))
            choices[lang] = tuple(str(choice) for choice in said)
            # two lines, kept as written: the first says what happens, the second why
            whys[lang] = "\n".join(line.strip() for line in str(table["why"]).strip().splitlines())
        return PredictQuestion(
            qid, part, self.anchor(raw, where), offset, field, tuple(values), answer - 1, questions, choices, whys
        )


@cache
def questions_of(name: str) -> tuple[PredictQuestion, ...]:
    """Every predict question of tutorial `name`, from its notes file, in file order."""
    tutorial: Tutorial = TUTORIALS[name]
    source = tutorial.notes_path
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise NotesFileError(f"{source.name}: not valid TOML: {error}") from None
    reader = _QuestionReader(source, tutorial.part_names)
    found = tuple(reader.question(raw, i) for i, raw in enumerate(data.get("predict", [])))
    ids = [q.id for q in found]
    if len(set(ids)) != len(ids):
        raise reader.fail("predict", f"question ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return found


def predict_stops(name: str, lang: str, events: Sequence[EventBase]) -> list[PredictStop]:
    """The questions of tutorial `name` (or of one part, by its scenario name) on `events`, in seq order.

    A question whose event is not in the run is an error naming it (the fixture changed shape)."""
    tutorial, part = find_part(name)
    stops = []
    for q in questions_of(tutorial.name):
        if q.part != part.name:
            continue
        event, matched = predicted_event(q, events)
        if event is None:
            raise NotesFileError(
                f"{tutorial.notes_path.name}: predict {q.id!r} expects {q.anchor.describe()}, "
                f"but the trace has {matched} such event{'s' * (matched != 1)}"
            )
        stops.append(PredictStop(event.seq, q.id, q.questions[lang], q.choices[lang], q.answer, q.whys[lang]))
    stops.sort(key=lambda stop: stop.seq)
    return stops


__all__ = [
    "PredictQuestion",
    "PredictStop",
    "event_value",
    "predict_stops",
    "predicted_event",
    "questions_of",
    "value_matches",
]
