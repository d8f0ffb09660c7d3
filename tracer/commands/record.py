"""`loopscope record SCENARIO -o FILE`: run a scenario with its scripted replies and save the trace."""

from __future__ import annotations

import argparse

from executor import ManualClock, ScriptedModel

from ..trace_writer import TraceWriter
from .scenarios import scenario_named


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("record", help="record a scenario's run as a trace fixture")
    p.add_argument("scenario")
    p.add_argument("-o", "--output", help="where to write (default: the scenario's fixture path)")
    return p


def record_scenario(scenario, output) -> int:
    model = ScriptedModel(scenario.replies)
    # A manual clock makes the recording byte-for-byte reproducible.
    executor = scenario.executor(model, clock=ManualClock(tick=0.001),
                                 run_id_factory=lambda: scenario.name)
    with TraceWriter(output, scenario=scenario.name) as writer:
        try:
            executor.invoke(scenario.inputs(), [writer])
        except Exception:
            pass  # failure scenarios end in chain_error; the trace records it
    return writer.count


def run(args: argparse.Namespace) -> int:
    scenario = scenario_named(args.scenario)
    output = args.output or scenario.fixture
    count = record_scenario(scenario, output)
    print(f"recorded {count} events of {scenario.name} to {output}")
    return 0
