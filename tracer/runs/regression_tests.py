"""A recorded run written out as a pytest regression test (`loopscope tests add`, `t` in the runs table)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..agents.scenario_registry import UnknownAgent
from ..agents.trust import trusted_agent
from ..i18n import Message
from ..trace.literal_text import scrub
from ..trace.reader import TraceFormatError
from ..trace.transitions import Trace

DEFAULT_FOLDER = "tests/regressions"
TEMPLATE = '''"""Regression test made by `loopscope tests add` from the run {trace!r}.

The run is replayed through the agent: every model call is answered from the recording, every deterministic
tool runs for real, and the test fails at the first event that differs (the event, the field, both values).
Recorded outcome: {outcome}
"""

from pathlib import Path

from tracer import replay_run

TRACE = Path(__file__).with_name({trace!r})


def test_{name}():
    replay_run(TRACE, agent={agent!r})
'''


class CannotWriteTest(Exception):
    """Why no test was written for a run, as a message the caller says in its language."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.text("en"))
        self.said = said


@dataclass(frozen=True)
class RegressionTest:
    """What was written for one run: the pytest module, the trace's copy beside it, the agent it replays through."""

    test_file: Path
    copy: Path
    agent: str


def test_name(path: Path) -> str:
    """A Python identifier from the run's file name: `weather run.2.jsonl` -> `weather_run_2`."""
    stem = path.name.removesuffix(".jsonl")
    name = re.sub(r"\W+", "_", stem, flags=re.ASCII).strip("_").lower() or "run"
    return name if not name[0].isdigit() else f"run_{name}"


def write_regression_test(
    path: Path,
    folder: Path,
    agent: str | None = None,
    force: bool = False,
    trusted: Sequence[str] | None = None,
) -> RegressionTest:
    """Write `folder`/test_regression_NAME.py replaying `path` (copied to `folder`/NAME.jsonl) through
    `agent` (default: the one its header names). With `trusted` (the --agent specs a screen was given),
    the agent must be one the user trusts (those, or their pyproject.toml's): a run picked from a list
    was not named by the user, and the test would import whatever its header says. Raises CannotWriteTest."""
    try:
        trace = Trace.load(path)
    except (TraceFormatError, OSError) as error:
        raise CannotWriteTest(Message("runs.tests.unreadable", {"problem": scrub(str(error))})) from None
    agent = agent or trace.header.agent
    if not agent:
        raise CannotWriteTest(Message("runs.tests.no_agent", {"path": scrub(str(path))}))
    if trusted is not None:
        try:
            trusted_agent(agent, trusted)
        except UnknownAgent as error:
            raise CannotWriteTest(Message("runs.tests.untrusted", {"agent": scrub(agent), "why": str(error)})) from None
    name = test_name(path)
    test_file, copy = folder / f"test_regression_{name}.py", folder / f"{name}.jsonl"
    for target in (test_file, copy):
        if target.exists() and not force:
            raise CannotWriteTest(Message("runs.tests.exists", {"path": scrub(str(target))}))
    outcome = scrub(trace.outcome()).replace('"""', "'''")[:200]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        test_file.write_text(TEMPLATE.format(trace=copy.name, outcome=outcome, name=name, agent=agent), "utf-8")
    except OSError as error:  # a read-only folder, a full disk: said, not a traceback over the table
        raise CannotWriteTest(Message("runs.tests.cannot_write", {"problem": scrub(str(error))})) from None
    return RegressionTest(test_file, copy, agent)
