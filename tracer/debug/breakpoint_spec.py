"""Breakpoint descriptions as typed: `tool=Search if iteration >= 2`, `temp line=my_agent.py:11`, parsed or refused in one line."""

from __future__ import annotations

import re
from typing import Any

from executor.events import EVENT_KINDS

from ..i18n import say
from .conditions import Condition, ConditionError

DEFAULT_LINE_FILE = "executor/agent_executor.py"
TARGETS = ("kind", "tool", "iteration", "method", "line", "condition")
SPEC_HELP = say("debugger.spec_help")  # in English: the errors that quote it are read on the command line too


class BreakpointSpecError(ValueError):
    """A breakpoint description that cannot be understood; the message says how to write one."""


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def _parse_target(what: str) -> tuple[str, Any]:
    key, sep, value = what.partition("=")
    key, value = key.strip(), value.strip()
    if not sep:
        if what in EVENT_KINDS:
            return "kind", what
        if re.fullmatch(r"[\w./-]+:\d+", what):
            key, value = "line", what
        else:
            raise BreakpointSpecError(f"cannot read breakpoint {what!r}: {SPEC_HELP}")
    if key not in TARGETS[:-1]:
        raise BreakpointSpecError(
            f"unknown breakpoint target {key!r}; use one of {', '.join(TARGETS[:-1])} (or `if CONDITION`)"
        )
    if not value:
        raise BreakpointSpecError(f"{key}= needs a value: {SPEC_HELP}")
    return key, _parse_value(key, value)


def quoted_start(text: str, limit: int = 60) -> str:
    """Hostile specs can be huge: an error message quotes only their start."""
    return text if len(text) <= limit else text[:limit] + "…"


def _is_count(text: str) -> bool:
    """ASCII digits only (str.isdigit() accepts '²', which int() refuses), and a sane length."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _parse_value(key: str, value: str) -> Any:
    if key == "kind" and value not in EVENT_KINDS:
        raise BreakpointSpecError(f"unknown event kind {value!r}; kinds are: {', '.join(EVENT_KINDS)}")
    if key == "iteration":
        if not _is_count(value):
            raise BreakpointSpecError(f"iteration={quoted_start(value)} must be a whole number, e.g. iteration=2")
        return int(value)
    if key == "method" and not _IDENT.match(value):
        raise BreakpointSpecError(f"method={value} is not a function name, e.g. method=plan")
    if key == "line":
        file, _, line = value.rpartition(":")
        if not _is_count(line) or int(line) < 1:
            raise BreakpointSpecError(
                f"line={quoted_start(value)} needs a line number, e.g. line={DEFAULT_LINE_FILE}:95"
            )
        return (file or DEFAULT_LINE_FILE, int(line))
    return value


def parse_spec(text: str) -> dict[str, Any]:
    """The parts of a breakpoint description: target, value, condition, temporary, ignore."""
    words = text.strip().split()
    temporary, ignore = False, 0
    while words and (words[0] in ("temp", "once") or words[0].startswith("ignore=")):
        word = words.pop(0)
        if word.startswith("ignore="):
            count = word.partition("=")[2]
            if not _is_count(count):
                raise BreakpointSpecError(f"{word}: the ignore count must be a whole number, e.g. ignore=2")
            ignore = int(count)
        else:
            temporary = True
    rest = " ".join(words)
    what, _, condition_text = (" " + rest).partition(" if ")
    what = what.strip()
    if not what and not condition_text.strip():
        raise BreakpointSpecError(f"empty breakpoint: {SPEC_HELP}")
    try:
        condition = Condition(condition_text) if condition_text.strip() else None
        if not what:
            return {
                "target": "condition",
                "value": None,
                "condition": condition,
                "temporary": temporary,
                "ignore": ignore,
            }
        target, value = _parse_target(what)
    except ConditionError as error:
        raise BreakpointSpecError(f"bad condition {quoted_start(condition_text.strip())!r}: {error}") from None
    return {"target": target, "value": value, "condition": condition, "temporary": temporary, "ignore": ignore}
