"""What `loopscope run` does once its arguments are parsed: re-execute the scenario and narrate it (tracer/cli/run.py parses)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from executor import AgentExecutor, SystemClock
from executor.run_context import Listener

from ..agents.scenario_registry import UnknownAgent
from ..agents.user_agent import header_meta
from ..i18n import Message, say
from ..models.live_model import SkippingClock
from ..replay.builder import replayed_executor
from ..replay.recorded_answers import ReplayDivergence
from ..replay.verify import recorded_inputs
from ..report.narration.ledger import Ledger
from ..report.narration.narrator import Narrator
from ..report.text.literal import literal
from ..trace.literal_text import scrub
from ..trace.redact import Redactor
from ..trace.transitions import Trace
from ..trace.writer import TraceWriteError, TraceWriter
from .language import chosen_language, usage_error
from .live_options import live_model, wants_live
from .options import price_table
from .scenarios import fixture_for, scenario_named
from .usage_error import UsageError


def _live_setup(args: argparse.Namespace, scenario: Any) -> tuple[AgentExecutor, dict, Redactor | None, Message]:
    if args.fixture:
        raise usage_error("cli.run.error.fixture_live", args)
    clock = SystemClock()  # real waits: backoff and rate limiting happen in real time
    live = live_model(args, scenario.replies, clock)
    # The scenario's own tools are used as they are; the calculator asks the same live model.
    executor = scenario.executor(live.model, clock=clock, **live.executor_options())
    return executor, live.header(), live.redactor(), Message("cli.run.ran_live", {"spec": live.spec})


def _replay_setup(
    args: argparse.Namespace, scenario: Any, console: Console, lang: str
) -> tuple[AgentExecutor, dict, Redactor | None, Message]:
    path = fixture_for(scenario, args.fixture)
    trace = Trace.load(path)
    if trace.warning:
        console.print(literal(say("cli.warning", lang, text=trace.warning), style="yellow"))
    # Recorded retries happen again under the recorded policy, but their waits are skipped.
    executor = replayed_executor(trace, scenario.executor, clock=SkippingClock())
    if getattr(scenario, "given_inputs", False) is None:  # a user's agent asked nothing: ask what the recording asked
        scenario.given_inputs = recorded_inputs(trace)
    return executor, {"replayed_from": str(path)}, None, Message("cli.run.replayed", {"name": path.name})


def run_scenario(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    lang = chosen_language(args.lang)
    if args.replies and not args.model:
        args.model = "scripted"  # --replies: the built-in scripted model answers, offline
    args.needs_inputs = wants_live(args)  # a replay can ask what the recording asked
    scenario = scenario_named(_named(args), args)
    console = Console(highlight=False)
    if getattr(scenario, "langchain_run", None) is not None and not wants_live(args) and not args.fixture:
        # Recorded from LangChain's own agent: run that one again (loopscope's executor words its
        # retries otherwise, and would leave the recording at the first tool message).
        return _run_langchain(args, scenario, console, lang, started)
    try:
        setup = _live_setup(args, scenario) if wants_live(args) else _replay_setup(args, scenario, console, lang)
    except UnknownAgent as error:  # the user's build(model) raised, or returned no AgentExecutor
        raise UsageError(error.args[0]) from None
    executor, meta, redactor, done = setup
    ledger = Ledger(prices=price_table(args.prices))
    writer = TraceWriter(args.trace, redactor=redactor, **header_meta(scenario), **meta) if args.trace else None
    shown_redacted = writer.redactor if writer else redactor
    narrator = Narrator(console, show_prompts=args.prompts, redactor=shown_redacted, lang=lang)
    listeners: list[Listener] = [narrator, ledger.add]
    if writer:
        listeners.append(writer)
    try:
        executor.invoke(scenario.inputs(), listeners)
    except ReplayDivergence as error:
        said = narrator.redactor.redact_text(str(error))
        console.print(literal(say("cli.run.left_recording", lang, error=said), style="bold red"))
        _finish_trace(writer, console)
        return 1
    except KeyboardInterrupt:
        if writer:
            writer.abandon()
            raise KeyboardInterrupt(writer.interrupted_words()) from None
        raise
    except Exception as error:  # the run itself failed; the narration already showed where
        said = narrator.redactor.redact_text(str(error))
        console.print(
            literal(say("cli.run.ended_with", lang, error_type=type(error).__name__, error=said), style="red")
        )
    trace_failure = _finish_trace(writer, console)
    console.print("\n" + say("ledger.title", lang), style="bold")
    for line in ledger.lines(lang):
        console.print(literal("  " + line), highlight=False)
    took = time.perf_counter() - started
    # `done` names the model .env or the flags gave: shown literally, like every field here.
    written = say("cli.run.trace_written", lang, path=args.trace) if writer and not trace_failure else ""
    console.print(literal(say("cli.run.done", lang, done=done.text(lang), took=f"{took:.2f}") + written, style="dim"))
    if trace_failure:
        print(f"loopscope: {scrub(trace_failure)}", file=sys.stderr)
        return 1
    return 0 if ledger.outcome in ("finished", f"stopped by {ledger.stopped_by}") else 1


def _run_langchain(args: argparse.Namespace, scenario: Any, console: Console, lang: str, started: float) -> int:
    from ..bridges.langchain_fixtures import LangChainRecordingError, record_fixture  # late: LangChain
    from ..extras import missing_extra
    from ..trace.reader import TraceFile

    folder = tempfile.TemporaryDirectory(prefix="loopscope-")
    with folder:
        path = Path(args.trace) if args.trace else Path(folder.name) / "run.jsonl"
        try:
            record_fixture(scenario, path)
        except ImportError as error:
            raise UsageError(str(missing_extra("langchain", f"loopscope run {scenario.name}", error))) from None
        except LangChainRecordingError as error:
            raise UsageError(str(error)) from None
        ledger = Ledger(prices=price_table(args.prices))
        narrator = Narrator(console, show_prompts=args.prompts, lang=lang)
        with TraceFile(path) as trace:
            for event in trace:
                narrator(event)
                ledger.add(event)
    console.print("\n" + say("ledger.title", lang), style="bold")
    for line in ledger.lines(lang):
        console.print(literal("  " + line), highlight=False)
    took = f"{time.perf_counter() - started:.2f}"
    written = say("cli.run.trace_written", lang, path=args.trace) if args.trace else ""
    console.print(literal(say("cli.run.done", lang, done=say("cli.run.ran_langchain", lang), took=took) + written))
    return 0 if ledger.outcome in ("finished", f"stopped by {ledger.stopped_by}") else 1


def _named(args: argparse.Namespace) -> str:
    """The scenario or agent to run: the positional name, or --agent (the same thing said as a flag)."""
    if args.agent and args.scenario and args.agent != args.scenario:
        raise usage_error("cli.run.error.two_agents", args, scenario=args.scenario, agent=args.agent)
    if not (args.agent or args.scenario):
        raise usage_error("cli.run.error.nothing_named", args)
    return args.agent or args.scenario


def _finish_trace(writer: TraceWriter | None, console: Console) -> str | None:
    """Close the trace; a failed write is reported, never turned into the run's outcome."""
    if writer is None:
        return None
    try:
        writer.close()
    except TraceWriteError as failure:
        return str(failure)
    return None
