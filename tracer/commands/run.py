"""`loopscope run SCENARIO`: re-execute a scenario against its recording and narrate it."""

from __future__ import annotations

import argparse
import sys
import time

from rich.console import Console

from executor import SystemClock

from ..cassette import ReplayDivergence, build_from_recording
from ..ledger import Ledger
from ..narrator import Narrator
from ..trace_file import load_trace
from ..trace_writer import TraceWriter
from .scenarios import fixture_for, scenario_named


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("run", help="re-run a scenario offline from its recording and narrate it",
                       description="Re-execute the real executor: recorded model replies and "
                                   "Search results answer, the Calculator really runs numexpr.")
    p.add_argument("scenario", help="scenario name, e.g. rose-pricing")
    p.add_argument("--fixture", help="recording to replay (default: the scenario's fixture)")
    p.add_argument("--trace", metavar="OUT.jsonl", help="also write the new run's trace here")
    p.add_argument("--prompts", action="store_true", help="print every prompt sent to the model")
    return p


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    scenario = scenario_named(args.scenario)
    path = fixture_for(scenario, args.fixture)
    _header, recorded, warning = load_trace(path)
    console = Console(highlight=False)
    if warning:
        console.print(f"warning: {warning}", style="yellow", markup=False)
    model, tools = build_from_recording(scenario.build_tools, recorded)
    executor = scenario.executor(model, tools, clock=SystemClock())
    ledger = Ledger()
    listeners = [Narrator(console, show_prompts=args.prompts), ledger.add]
    writer = TraceWriter(args.trace, scenario=scenario.name, replayed_from=str(path)) if args.trace else None
    if writer:
        listeners.append(writer)
    try:
        executor.invoke(scenario.inputs(), listeners)
    except ReplayDivergence as error:
        console.print(f"\nThe run left the recording: {error}", style="bold red", markup=False)
        return 1
    except Exception as error:  # the run itself failed; the narration already showed where
        console.print(f"\nThe run ended with {type(error).__name__}: {error}", style="red", markup=False)
    finally:
        if writer:
            writer.close()
    console.print("\nLedger", style="bold")
    for line in ledger.lines():
        console.print("  " + line, markup=False, highlight=False)
    took = time.perf_counter() - started
    console.print(f"\nreplayed {path.name} offline in {took:.2f}s"
                  + (f"; trace written to {args.trace}" if writer else ""), style="dim", markup=False)
    return 0 if ledger.outcome == "finished" else 1
