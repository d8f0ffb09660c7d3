"""`loopscope tests add TRACE…`: each recorded run becomes a pytest regression test, its trace copied beside it."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..trace.literal_text import scrub
from . import COMMANDS
from .scenarios import agent_spec
from .usage_error import UsageError


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


def run(args: argparse.Namespace) -> int:
    # late: the parser alone loads no trace code
    from ..i18n import say
    from ..runs.regression_tests import CannotWriteTest, write_regression_test

    folder = Path(args.dir)
    for given in args.traces:
        try:
            written = write_regression_test(Path(given), folder, args.agent, args.force)
        except CannotWriteTest as refused:
            raise UsageError(refused.said.text()) from None
        said = {"path": written.test_file, "trace": written.copy.name, "agent": written.agent}
        print(scrub(say("runs.tests.wrote", **said)))
    print(say("runs.tests.run_them", folder=folder))
    return 0
