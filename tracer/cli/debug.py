"""`loopscope debug TRACE.jsonl` / `loopscope debug --live SCENARIO`: step through a run in the debugger."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from . import COMMANDS
from .language import LANG_HELP, chosen_language, usage_error
from .live_options import add_live_arguments, live_model
from .options import debugger_options
from .scenarios import (
    AGENT_HELP,
    add_agent_argument,
    add_input_arguments,
    add_max_turns_argument,
    given_limits,
    scenario_named,
)
from .terminal import can_show_debugger
from .trace_choice import add_trace_id_argument, chosen_trace, ids_for
from .usage_error import UsageError

TYPE_CHECKING = False  # not typing's: see scenarios.py
if TYPE_CHECKING:  # the printed run's (pipes, --print) and --live's: opening a trace in the debugger needs neither
    from rich.console import Console

    from ..debug.framework_live import FrameworkLiveRun
    from ..debug.live_run import LiveRun


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "debug",
        help=COMMANDS["debug"],
        description="Open the step-through debugger on a trace (no model, no network), or "
        "with --live drive a scenario's executor one event at a time, the "
        "fixture's recorded replies answering the model. When stdout is not "
        "a terminal the narrated run is printed instead.",
    )
    p.add_argument("trace", nargs="?", metavar="TRACE.jsonl", help="the trace file to open")
    p.add_argument("--live", metavar="SCENARIO", help="run this live: " + AGENT_HELP)
    p.add_argument(
        "--break",
        dest="breaks",
        action="append",
        default=[],
        metavar="SPEC",
        help="set a breakpoint, e.g. tool_error, tool=Calculator, iteration=2, method=plan, "
        "line=executor/agent_executor.py:95, a line of your tool such as tools.py:12 "
        "(live: the run stops on it; a trace: at that call's tool events), "
        '"if iteration >= 2"; repeatable; saved next to the trace',
    )
    p.add_argument(
        "--record",
        metavar="OUT.jsonl",
        help="with --live: where to write the live run's trace (default: a temporary file)",
    )
    p.add_argument(
        "--print", dest="as_text", action="store_true", help="print the narrated run instead of opening the debugger"
    )
    p.add_argument(
        "--prices", metavar="FILE.toml", help="model prices for the token/cost figures (see `loopscope run --help`)"
    )
    p.add_argument("--lang", help="the debugger's own words (panes, keys, status, help) in this " + LANG_HELP)
    add_trace_id_argument(p)
    add_input_arguments(p)
    add_max_turns_argument(p)
    add_agent_argument(p)
    add_live_arguments(p, live_flag=False)
    return p


def _check_arguments(args: argparse.Namespace) -> None:
    if bool(args.trace) == bool(args.live):
        raise usage_error("cli.debug.error.trace_or_live", args)
    if args.record and not args.live:
        raise usage_error("cli.debug.error.record_without_live", args)
    if args.max_turns is not None and not args.live:  # a recording is re-run with its own limit
        raise usage_error("cli.debug.error.max_turns_without_live", args)
    if args.trace_ids and not args.trace:
        raise usage_error("cli.debug.error.trace_id_without_trace", args)
    # Late: the event vocabulary (pydantic) loads with the trace, not with `debug --help`.
    from ..debug.breakpoint_spec import BreakpointSpecError, parse_spec

    for spec in args.breaks:
        try:
            parse_spec(spec)
        except BreakpointSpecError as error:
            shown = spec if len(spec) <= 60 else spec[:60] + "…"  # a hostile spec can be huge
            raise usage_error("cli.debug.error.break", args, spec=shown, problem=error) from None


def narrate_trace(path: str | Path, console: Console, lang: str = "en") -> None:
    """Print a recorded run the way `loopscope run` narrates it (for pipes and files)."""
    # Late, like every import here that only printing or --live needs: the debugger opens without them.
    from ..report.narration.narrator import Narrator
    from ..report.text.literal import literal
    from ..trace.reader import TraceFile

    with TraceFile(path) as trace:
        if trace.warning:
            console.print(literal(f"warning: {trace.warning}", style="yellow"))
        if trace.import_note:
            console.print(literal(trace.import_note, style="dim"))
        if trace.notice:
            console.print(literal(f"warning: {trace.notice}", style="yellow"))
        narrator = Narrator(console, lang=lang)
        for event in trace:
            narrator(event)


def _live_run(args: argparse.Namespace) -> LiveRun | FrameworkLiveRun:
    # Only `debug --live` runs the executor (in a child process, multiprocessing): a trace opens without it.
    from executor import SystemClock

    from .live_framework import framework_live_run  # late: it imports the user's agent

    framework = framework_live_run(args)
    if framework is not None:
        return framework
    given_limits(args, None)  # --max-turns names a framework agent's limit: not loopscope's own agents'

    from ..debug.live_run import LiveRun
    from ..replay.verify import recorded_inputs  # late: see narrate_trace
    from ..trace.transitions import Trace  # late: see narrate_trace

    safe_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in args.live)
    record = args.record or Path(tempfile.mkdtemp(prefix="loopscope-")) / f"{safe_name}.live.jsonl"
    # Here --live means a live debugging session, not a live model: only --model/--fallbacks ask for one.
    if args.replies and not args.model:
        args.model = "scripted"  # --replies: the built-in scripted model answers, offline
    wants_model = bool(args.model or getattr(args, "fallbacks", False))
    # Without a real model the recording answers, and it knows what was asked.
    args.needs_inputs = wants_model and not (args.model or "").startswith("replay:")
    scenario = scenario_named(args.live, args)
    if not wants_model and not Path(scenario.fixture).is_file():  # a user's agent: ./MODULE_FUNCTION.jsonl
        raise UsageError(
            f"{args.live} has no recording at {scenario.fixture} to answer its model: pass "
            "--model replay:TRACE.jsonl (a run you recorded) or --model PROVIDER:NAME (a live model), or record "
            f"one there first (loopscope record {args.live} --input TEXT --model PROVIDER:NAME)"
        )
    model = live_model(args, scenario.replies, SystemClock()) if wants_model else None
    if model is not None and getattr(scenario, "given_inputs", False) is None:
        scenario.given_inputs = recorded_inputs(Trace.load(args.model.removeprefix("replay:")))
    try:
        return LiveRun(scenario, record, model=model)
    except (LookupError, OSError) as error:
        raise UsageError(str(error.args[0]) if error.args else str(error)) from None


def _narrate_live(run: LiveRun | FrameworkLiveRun, console: Console, lang: str) -> None:
    from ..report.narration.narrator import Narrator  # late: see narrate_trace
    from ..report.text.literal import literal  # late: see narrate_trace

    narrator = Narrator(console, lang=lang)
    while isinstance(pulled := run.pull(), tuple):  # None at the end (a printed run never steps into a tool)
        narrator(pulled[0])
    console.print(literal(f"\n{run.outcome}; trace written to {run.close()}", style="dim"))


def _console() -> Console:
    from rich.console import Console  # late: see narrate_trace

    return Console(highlight=False)


def run(args: argparse.Namespace) -> int:
    _check_arguments(args)
    # One value for all the debugger is told (a bad --prices file is said now, before anything opens).
    options = debugger_options(args, chosen_language(args.lang))
    to_terminal = can_show_debugger() and not args.as_text
    if args.live:
        live = _live_run(args)
        if not to_terminal:
            _narrate_live(live, _console(), options.lang or "en")
            return 0
        from ..tui.launch import open_debugger  # Textual: --print and pipes never load it

        return open_debugger(None, options=options, live=live, title=f"live: {args.live}")
    # Another tool's file holding several traces: the one --trace-id names, or the user's pick.
    trace = chosen_trace(args.trace, ids_for([args.trace], args.trace_ids)[0], ask=to_terminal)
    if not to_terminal:
        narrate_trace(trace, _console(), options.lang or "en")
        return 0
    from ..tui.launch import open_debugger  # Textual: --print and pipes never load it

    # With a trace, --model answers prompts edited in the playground (`e`); the trace itself is replayed.
    return open_debugger(trace, options=options)
