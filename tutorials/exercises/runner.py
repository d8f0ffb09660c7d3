"""Runs a learner's exercise file offline on its scripted replies and judges the events of that run."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from executor import ManualClock
from executor.events import EventBase

from .judges import Finding, judge
from .scripts import QUESTION, model_for


@dataclass(frozen=True)
class CheckResult:
    """The run's events and what is still wrong (nothing: the exercise is solved)."""

    events: Sequence[EventBase]
    findings: Sequence[Finding]

    @property
    def passed(self) -> bool:
        return not self.findings


def _load_build(name: str, path: Path) -> object:
    """The file's build function; the file is the learner's own (they asked for it to be checked)."""
    module_name = f"loopscope_exercise_{name.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop(module_name, None)  # a fresh copy every check: module state (a flaky tool's count) resets
    spec.loader.exec_module(module)
    return getattr(module, "build", None)


def check_file(name: str, path: Path, listeners: Sequence[Callable[[EventBase], object]] = ()) -> CheckResult:
    """Run `path` (an exercise file with build(model)) as exercise `name` and judge its trace.

    `listeners` hear the run's events too (the command writes them as a trace to open in the debugger)."""
    try:
        build = _load_build(name, path)
    except Exception as error:  # the learner's file: a typo must be told, not crash the command
        return CheckResult((), [Finding("load_failed", {"error": f"{type(error).__name__}: {error}"})])
    if not callable(build):
        return CheckResult((), [Finding("no_build")])
    events: list[EventBase] = []
    try:
        agent = build(model_for(name))
        if getattr(agent, "clock", ...) is None:  # retries wait on a clock that only pretends: checks never sleep
            agent.clock = ManualClock()
        agent.invoke({"input": QUESTION[name]}, [events.append, *listeners])
    except Exception as error:  # the run's failure is in its events (chain_error); a crash before them is told
        if not events:
            return CheckResult((), [Finding("load_failed", {"error": f"{type(error).__name__}: {error}"})])
    return CheckResult(events, judge(name, events))
