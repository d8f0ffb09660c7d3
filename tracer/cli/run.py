"""`loopscope run SCENARIO`: re-execute a scenario against its recording (or a live model) and narrate it."""

from __future__ import annotations

import argparse

from . import COMMANDS
from .language import LANG_HELP
from .live_options import add_live_arguments
from .scenarios import AGENT_HELP, add_input_arguments, agent_spec


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "run",
        help=COMMANDS["run"],
        description="Re-execute the real executor: recorded model replies and "
        "Search results answer, the Calculator really runs numexpr.",
    )
    p.add_argument("scenario", nargs="?", help=AGENT_HELP)
    p.add_argument(
        "--agent",
        metavar="MODULE:FUNCTION",
        type=agent_spec,
        help="your own agent (the same as naming it in place of SCENARIO)",
    )
    p.add_argument("--fixture", help="recording to replay (default: the scenario's fixture)")
    p.add_argument("--trace", metavar="OUT.jsonl", help="also write the new run's trace here")
    p.add_argument("--prompts", action="store_true", help="print every prompt sent to the model")
    p.add_argument(
        "--prices",
        metavar="FILE.toml",
        help="model prices (dollars per million tokens) over the shipped table; also read from $LOOPSCOPE_PRICES",
    )
    p.add_argument("--lang", help="the narration's and the ledger's own words in this " + LANG_HELP)
    add_input_arguments(p)
    add_live_arguments(p)
    return p


def run(args: argparse.Namespace) -> int:
    # Late: the run itself needs the engine, the replay machinery and Rich; `loopscope run
    # --help` and a wrong argument answer without them (tests/cli/test_startup_imports.py).
    from .run_scenario import run_scenario

    return run_scenario(args)
