"""Broken agents to fix: each exercise is a file to copy, its task and hints (en and zh), and a check of its trace."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..notes_file import LANGUAGES

HERE = Path(__file__).resolve().parent
# In teaching order: the ReAct text loop first, then recovery, then the tool-calling agent's history.
NAMES = ("stop-sequence", "parse-error", "max-iterations", "flaky-tool", "parallel-ids", "context-budget")


class ExerciseContentError(ValueError):
    """An exercise's content file that is malformed; the message names the file and what is missing."""


@dataclass(frozen=True)
class Exercise:
    name: str
    titles: Mapping[str, str]
    tasks: Mapping[str, str]
    hints: Mapping[str, tuple[str, ...]]
    findings: Mapping[str, Mapping[str, str]]  # finding key -> language -> template with {named} values

    @property
    def module(self) -> str:
        return self.name.replace("-", "_")

    @property
    def broken(self) -> Path:
        """The file the learner starts from."""
        return HERE / "broken" / f"{self.module}.py"

    @property
    def fixed(self) -> Path:
        """A reference fix, which passes the check (a test holds it to that)."""
        return HERE / "fixed" / f"{self.module}.py"


def _languages(table: object, where: str, source: Path) -> dict[str, str]:
    if not isinstance(table, dict) or any(not str(table.get(lang, "")).strip() for lang in LANGUAGES):
        raise ExerciseContentError(f"{source.name}: {where} needs text in each of {', '.join(LANGUAGES)}")
    return {lang: str(table[lang]).strip() for lang in LANGUAGES}


def _load(name: str) -> Exercise:
    source = HERE / f"{name.replace('-', '_')}.toml"
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    hints = data.get("hints", {})
    if not isinstance(hints, dict) or any(not hints.get(lang) for lang in LANGUAGES):
        raise ExerciseContentError(f"{source.name}: hints needs a non-empty list in each of {', '.join(LANGUAGES)}")
    if len({len(hints[lang]) for lang in LANGUAGES}) != 1:
        raise ExerciseContentError(f"{source.name}: hints must be as many in each language")
    findings = {key: _languages(text, f"finding {key!r}", source) for key, text in data.get("findings", {}).items()}
    return Exercise(
        name,
        _languages(data.get("title"), "title", source),
        _languages(data.get("task"), "task", source),
        {lang: tuple(str(h).strip() for h in hints[lang]) for lang in LANGUAGES},
        findings,
    )


@cache
def exercises() -> dict[str, Exercise]:
    """Every exercise by name, in teaching order, read from its content file."""
    return {name: _load(name) for name in NAMES}


__all__ = ["NAMES", "Exercise", "ExerciseContentError", "exercises"]
