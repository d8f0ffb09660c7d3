"""Annotations: lines appended after a run's events (scores) that say something about the run without rewriting it."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .literal_text import scrub

ANNOTATION_KEY = "annotation"
# Every annotation line starts with this, as TraceWriter and `append_score` write it: the reader tells
# an annotation from an event by these bytes alone, without decoding the line.
LINE_PREFIX = b'{"' + ANNOTATION_KEY.encode() + b'"'
# A score's name is a word (so `--where 'score.NAME < 0.5'` can name it): letters, digits, underscores.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
MAX_LABEL = 200  # characters of a label value
MAX_COMMENT = 2000  # characters of a comment
MAX_ANNOTATIONS = 10_000  # annotation lines read from one trace's end (a planted file cannot make us read more)


class ScoreError(ValueError):
    """A score that cannot be recorded: a bad name, a NaN, a label with control characters."""


@dataclass(frozen=True)
class Score:
    """One score of a run: a number or a label, who gave it (`source`) and when (`at`, ISO 8601 UTC).
    `event` is the seq of the event it was given on (an imported child run's feedback: its model or tool
    call); None, as in every trace written before it existed, is a score of the whole run."""

    name: str
    value: float | str
    comment: str = ""
    at: str = ""
    source: str = "loopscope"
    event: int | None = None

    def line(self) -> bytes:
        """The annotation line for the trace's end (its key first: see LINE_PREFIX)."""
        record: dict[str, Any] = {ANNOTATION_KEY: "score", "name": self.name, "value": self.value}
        if self.comment:
            record["comment"] = self.comment
        record.update(at=self.at, source=self.source)
        if self.event is not None:  # written only when set: a run's score line reads as it always did
            record["event"] = self.event
        return json.dumps(record, ensure_ascii=False).encode() + b"\n"


def checked_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise ScoreError(
            f"score name {scrub(name)[:80]!r} is not a word: use letters, digits and underscores "
            "(at most 64, not starting with a digit), e.g. helpful or answer_correct"
        )
    return name


def checked_value(value: object) -> float | str:
    """A finite number, or a short one-line label."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0  # Langfuse's BOOLEAN scores: 1 and 0
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ScoreError(f"score value {value!r} is not a finite number; give a number like 0.5, or a label")
        return float(value)
    if isinstance(value, str):
        if not value.strip() or len(value) > MAX_LABEL or any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise ScoreError(
                f"score label {scrub(value)[:80]!r} is empty, longer than {MAX_LABEL} characters or holds "
                "control characters; give a number or a short one-line label"
            )
        return value
    raise ScoreError(f"score value {scrub(repr(value))[:80]} is neither a number nor a label")


def parsed_value(text: str) -> float | str:
    """A value typed on the command line: a number when it reads as one (NaN and infinity refused), else a label."""
    try:
        number = float(text)
    except ValueError:
        return checked_value(text)
    return checked_value(number)


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def score_from(record: object) -> Score | None:
    """A Score from a decoded annotation line; None when it is not a well-formed score (skipped, never trusted)."""
    if not isinstance(record, dict) or record.get(ANNOTATION_KEY) != "score":
        return None
    try:
        name = checked_name(str(record.get("name", "")))
        value = checked_value(record.get("value"))
    except ScoreError:
        return None
    comment, at, source = (record.get(key, "") for key in ("comment", "at", "source"))
    return Score(
        name,
        value,
        scrub(comment)[:MAX_COMMENT] if isinstance(comment, str) else "",
        scrub(at)[:40] if isinstance(at, str) else "",
        scrub(source)[:40] if isinstance(source, str) and source else "loopscope",
        _event(record.get("event")),
    )


def _event(seq: object) -> int | None:
    """An event's seq, or None (the run's score) for anything else a hand-written line may hold there."""
    return seq if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0 else None


def latest_by_name(scores: list[Score]) -> dict[str, float | str]:
    """Each name's latest value of the run's own scores (the last line written wins): what `runs` shows
    and filters on. A score given on one event (a child run's feedback) is that event's, not the run's."""
    return {score.name: score.value for score in scores if score.event is None}


def append_score(path: str | os.PathLike[str], score: Score) -> None:
    """Append one score line; a trace whose last byte is not a newline gets one first (the run was cut off
    mid-line: the cut line stays a cut line, the score its own line)."""
    path = Path(path)
    with path.open("rb+") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell():
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")
        handle.write(score.line())


def trailing_annotations(lines: int, raw: Callable[[int], bytes]) -> tuple[int, list[Score]]:
    """(how many lines are the header and events, the scores after them) for a file of `lines` lines,
    `raw(i)` giving line i: annotations are the lines at the end that start with LINE_PREFIX."""
    first = lines
    while first > 1 and lines - first < MAX_ANNOTATIONS and raw(first - 1).startswith(LINE_PREFIX):
        first -= 1
    scores = []
    for position in range(first, lines):
        try:
            score = score_from(json.loads(raw(position)))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            score = None  # a damaged annotation is skipped: it never becomes an event either
        if score is not None:
            scores.append(score)
    return first, scores
