"""`loopscope tests add TRACE…`: each recorded run becomes a pytest regression test, its trace copied beside it."""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from ..trace.literal_text import scrub
from . import COMMANDS
from .scenarios import agent_spec
from .usage_error import UsageError

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


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "tests",
        help=COMMANDS["tests"],
        description="Turn recorded runs into pytest regression tests: `tests add TRACE...` writes, for each run, "
        "a test module that replays it through your agent, with the trace copied beside it. pytest then passes "
        "on the unchanged agent and fails with the first event that differs after a change.",
    )
    p.add_argument("action", choices=["add"], help="add: write a regression test for each trace")
    p.add_argument("traces", nargs="+", metavar="TRACE")
    p.add_argument("--dir", default="tests/regressions", help="where the tests go (default: tests/regressions)")
    p.add_argument(
        "--agent",
        type=agent_spec,
        metavar="MODULE:ATTR",
        help="the agent each run replays through (default: the one its header names)",
    )
    p.add_argument("--force", action="store_true", help="replace a test or trace of the same name")
    return p


def test_name(path: Path) -> str:
    """A Python identifier from the run's file name: `weather run.2.jsonl` -> `weather_run_2`."""
    stem = path.name.removesuffix(".jsonl")
    name = re.sub(r"\W+", "_", stem, flags=re.ASCII).strip("_").lower() or "run"
    return name if not name[0].isdigit() else f"run_{name}"


def run(args: argparse.Namespace) -> int:
    from ..trace.reader import TraceFormatError  # late: the parser alone loads no trace code
    from ..trace.transitions import Trace

    folder = Path(args.dir)
    written = []
    for given in args.traces:
        path = Path(given)
        try:
            trace = Trace.load(path)
        except TraceFormatError as error:
            raise UsageError(str(error)) from None
        agent = args.agent or trace.header.agent
        if not agent:
            raise UsageError(
                f"{path}: its header names no agent; give the one it replays through with --agent MODULE:ATTR"
            )
        name = test_name(path)
        test_file, copy = folder / f"test_regression_{name}.py", folder / f"{name}.jsonl"
        for target in (test_file, copy):
            if target.exists() and not args.force:
                raise UsageError(f"{target} exists; pass --force to replace it, or rename the trace")
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        outcome = scrub(trace.outcome()).replace('"""', "'''")[:200]
        test_file.write_text(
            TEMPLATE.format(trace=copy.name, outcome=outcome, name=name, agent=agent), encoding="utf-8"
        )
        written.append(test_file)
        print(scrub(f"wrote {test_file} (replays {copy.name} through {agent})"))
    print(f"run them with: pytest {folder}")
    return 0
