"""The learner's predict scores: each question's latest answer, right or wrong, kept in the user's data folder."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .predict import questions_of

SCORES_FILE = "predict-scores.json"
MAX_BYTES = 1_000_000  # a few hundred answers take a few kilobytes; anything bigger is not ours


@dataclass(frozen=True)
class Score:
    right: int
    asked: int


def scores_path() -> Path:
    """$XDG_DATA_HOME/loopscope/predict-scores.json (~/.local/share/loopscope/...). The learner's file, never
    one beside the tutorial's notes: those ship inside the package, which may be read-only and is shared."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "loopscope" / SCORES_FILE


def read_scores(path: Path | None = None) -> dict[str, dict[str, bool]]:
    """Every tutorial's answers by question id; a missing, oversized or malformed file reads as no answers."""
    path = path or scores_path()
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    tutorials = raw.get("tutorials") if isinstance(raw, dict) else None
    if not isinstance(tutorials, dict):
        return {}
    return {
        str(name): {str(qid): right for qid, right in answers.items() if isinstance(right, bool)}
        for name, answers in tutorials.items()
        if isinstance(answers, dict)
    }


def score_of(name: str, scores: dict[str, dict[str, bool]]) -> Score | None:
    """Tutorial `name`'s score (right / asked) over its current questions, or None before any answer."""
    ids = {question.id for question in questions_of(name)}
    answers = [right for qid, right in scores.get(name, {}).items() if qid in ids]
    return Score(sum(answers), len(answers)) if answers else None


def record_answer(name: str, question_id: str, right: bool, path: Path | None = None) -> Score:
    """Keep this answer (a later one replaces an earlier) and return the tutorial's score now. Raises
    OSError when the file cannot be written; it is replaced whole, so a crash never leaves half of it."""
    path = path or scores_path()
    scores = read_scores(path)
    scores.setdefault(name, {})[question_id] = right
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": 1, "tutorials": scores}, indent=1, sort_keys=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write(text)
    os.replace(out.name, path)
    score = score_of(name, scores)
    assert score is not None  # this answer was just kept
    return score


__all__ = ["SCORES_FILE", "Score", "read_scores", "record_answer", "score_of", "scores_path"]
