"""Predict questions: before an event is shown, the learner guesses it; each answer is checked by the event itself."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    # Asked this many events before the predicted one: a model's reply that names the tool gives
    # "which tool?" away, so such a question hides the reply too (ask_earlier = 1).
    ask_earlier: int
    field: str
    values: tuple[Any, ...]
    answer: int
    questions: Mapping[str, str]
    choices: Mapping[str, tuple[str, ...]]
    whys: Mapping[str, str]


@dataclass(frozen=True)
class PredictStop:
    """A question resolved on one run in one language: what a screen needs to ask it."""

    seq: int  # the event it predicts: revealed with it
    hidden_from: int  # the first event kept from sight until it is answered (seq, or earlier)
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
        earlier = raw.get("ask_earlier", 0)
        if not isinstance(earlier, int) or earlier < 0:
            raise self.fail(where, "ask_earlier must be 0 or more: how many events before the predicted one to ask")
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
            qid,
            part,
            self.anchor(raw, where),
            offset,
            earlier,
            field,
            tuple(values),
            answer - 1,
            questions,
            choices,
            whys,
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
        hidden_from = event.seq - q.ask_earlier
        if hidden_from < 1:  # the debugger opens on event 0 at the earliest: it cannot be kept from sight
            raise NotesFileError(f"{tutorial.notes_path.name}: predict {q.id!r} would hide event {hidden_from}")
        stops.append(
            PredictStop(event.seq, hidden_from, q.id, q.questions[lang], q.choices[lang], q.answer, q.whys[lang])
        )
    stops.sort(key=lambda stop: stop.seq)
    return stops


@dataclass
class PredictQuiz:
    """One part's questions as a learner meets them while stepping: which are answered, and how.

    A question is due when a move forward would show its hidden events; once answered it is never
    asked again in this quiz, whichever way the learner steps afterwards."""

    stops: Sequence[PredictStop]
    answers: dict[str, int] = field(default_factory=dict)  # question id -> the 0-based choice taken

    def due(self, shown: int, position: int) -> list[PredictStop]:
        """The unanswered questions that a move from event `shown` to `position` would give away: those
        whose hidden events start first, in the file's order (two questions can be about one event)."""
        pending = [s for s in self.stops if s.id not in self.answers and shown < s.hidden_from <= position]
        first = min((s.hidden_from for s in pending), default=None)
        return [s for s in pending if s.hidden_from == first]

    def answer(self, stop: PredictStop, choice: int) -> bool:
        """Keep the learner's choice (0-based); True when it is the right one."""
        self.answers[stop.id] = choice
        return choice == stop.answer

    def answered_at(self, position: int) -> list[tuple[PredictStop, int]]:
        """The answered questions whose events (hidden_from to seq) include `position`, with the choice taken."""
        return [
            (s, self.answers[s.id]) for s in self.stops if s.id in self.answers and s.hidden_from <= position <= s.seq
        ]

    def horizon(self, position: int) -> int | None:
        """The first event after `position` kept from sight (an unanswered question's), or None."""
        return min(
            (s.hidden_from for s in self.stops if s.id not in self.answers and s.hidden_from > position), default=None
        )

    def number(self, stop: PredictStop) -> int:
        """The question's 1-based number in this part."""
        return list(self.stops).index(stop) + 1


__all__ = [
    "PredictQuestion",
    "PredictQuiz",
    "PredictStop",
    "event_value",
    "predict_stops",
    "predicted_event",
    "questions_of",
    "value_matches",
]
