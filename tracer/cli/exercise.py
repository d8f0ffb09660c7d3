"""`loopscope exercise`: broken agents to fix; start one, check it against its trace, ask for a hint."""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

from tutorials.exercises import Exercise, exercises
from tutorials.exercises.judges import Finding
from tutorials.notes_file import LANGUAGES

from ..i18n import say
from ..trace.literal_text import scrub
from . import COMMANDS
from .language import chosen_language
from .usage_error import UsageError

FOLDER = Path("loopscope-exercises")  # in the learner's working directory: their files, their state
HINTS_FILE = ".hints.json"  # how many hints of each exercise were given


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("exercise", help=COMMANDS["exercise"], description=say("exercise.description"))
    p.add_argument("action", nargs="?", default="list", choices=("list", "start", "check", "hint"))
    p.add_argument("name", nargs="?", help=say("exercise.name_help"))
    p.add_argument("--lang", help=f"language of the task and hints: {', '.join(LANGUAGES)}")
    p.add_argument("--force", action="store_true", help=say("exercise.force_help"))
    return p


def _named(name: str | None, action: str) -> Exercise:
    if not name:
        raise UsageError(say("exercise.name_missing", action=action, names=", ".join(exercises())))
    if name not in exercises():
        raise UsageError(say("exercise.unknown", name=name, names=", ".join(exercises())))
    return exercises()[name]


def learner_file(exercise: Exercise) -> Path:
    return FOLDER / f"{exercise.name}.py"


def list_exercises(lang: str) -> None:
    width = max(len(name) for name in exercises())
    for name, exercise in exercises().items():
        print(f"{name:<{width}}  {exercise.titles[lang]}")
    print("\n" + say("exercise.list_hint", lang))


def file_text(exercise: Exercise, lang: str) -> str:
    """The broken agent with its docstring replaced by the task, in the learner's language."""
    source = exercise.broken.read_text(encoding="utf-8")
    docstring_end = ast.parse(source).body[0].end_lineno or 0  # the broken file opens with its docstring
    body = "".join(source.splitlines(keepends=True)[docstring_end:])
    task = "\n".join(line.rstrip() for line in exercise.tasks[lang].splitlines())
    footer = say("exercise.file_footer", lang, name=exercise.name)
    return f'"""{exercise.titles[lang]}\n\n{task}\n\n{footer}\n"""\n{body}'


def start(exercise: Exercise, lang: str, force: bool) -> int:
    target = learner_file(exercise)
    if target.exists() and not force:
        raise UsageError(say("exercise.exists", lang, path=target, name=exercise.name))
    FOLDER.mkdir(exist_ok=True)
    target.write_text(file_text(exercise, lang), encoding="utf-8")
    _save_hints_given(exercise, 0)  # a fresh start: the hints start over too
    print(say("exercise.started", lang, path=target) + "\n")
    print(exercise.titles[lang] + "\n\n" + exercise.tasks[lang] + "\n")
    print(say("exercise.next_steps", lang, name=exercise.name))
    return 0


def finding_text(exercise: Exercise, finding: Finding, lang: str) -> str:
    """A finding in words; the values it quotes come from the run (model and tool text): made literal."""
    args = {key: scrub(value) for key, value in finding.args.items()}
    if finding.key in exercise.findings:
        return exercise.findings[finding.key][lang].format(**args)
    return say(f"exercise.finding.{finding.key}", lang, **args)


def check(exercise: Exercise, lang: str) -> int:
    from tutorials.exercises.runner import check_file  # late: only a check runs an agent

    from ..trace.writer import TraceWriter  # late: only a check writes a trace

    target = learner_file(exercise)
    if not target.exists():
        raise UsageError(say("exercise.not_started", lang, path=target, name=exercise.name))
    trace = target.with_suffix(".jsonl")
    with TraceWriter(trace) as writer:
        result = check_file(exercise.name, target.resolve(), [writer])
    if result.passed:
        print("✓ " + say("exercise.passed", lang, name=exercise.name, events=len(result.events)))
        return 0
    print("✗ " + say("exercise.failed", lang, name=exercise.name, events=len(result.events)))
    for finding in result.findings:
        print("  - " + finding_text(exercise, finding, lang))
    if result.events:
        print("\n" + say("exercise.see_trace", lang, path=trace))
    print(say("exercise.try_hint", lang, name=exercise.name))
    return 1


def _hints_path() -> Path:
    return FOLDER / HINTS_FILE


def _hints_given() -> dict[str, int]:
    try:
        given = json.loads(_hints_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or a file someone edited badly: start counting afresh
        return {}
    return {k: v for k, v in given.items() if isinstance(v, int)} if isinstance(given, dict) else {}


def _save_hints_given(exercise: Exercise, count: int) -> None:
    FOLDER.mkdir(exist_ok=True)
    given = _hints_given() | {exercise.name: count}
    _hints_path().write_text(json.dumps(given, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def hint(exercise: Exercise, lang: str) -> int:
    hints = exercise.hints[lang]
    number = min(_hints_given().get(exercise.name, 0) + 1, len(hints))
    _save_hints_given(exercise, number)
    print(say("exercise.hint", lang, number=number, total=len(hints), text=hints[number - 1]))
    if number == len(hints):
        print(say("exercise.last_hint", lang, name=exercise.name))
    return 0


def run(args: argparse.Namespace) -> int:
    lang = chosen_language(args.lang)
    if args.action == "list":
        list_exercises(lang)
        return 0
    exercise = _named(args.name, args.action)
    if args.action == "start":
        return start(exercise, lang, args.force)
    if args.action == "check":
        return check(exercise, lang)
    return hint(exercise, lang)
