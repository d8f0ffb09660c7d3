"""`loopscope record SCENARIO -o FILE`: run a scenario with its scripted replies and save the trace."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from executor import ChatModel, ManualClock, ScriptedModel, SystemClock, ToolError

from ..agents.scenario_registry import UnknownAgent
from ..agents.user_agent import header_meta, is_agent_spec
from ..i18n import say
from ..models.live_model import LiveModel
from ..replay.builder import DEFAULT_CLOCK_TICK
from ..replay.cassette import RecordMode, should_record
from ..trace.literal_text import scrub
from ..trace.redact import Redactor, default_redactor
from ..trace.writer import TraceWriteError, TraceWriter
from . import COMMANDS
from .language import command_language, usage_error
from .live_options import add_live_arguments, live_model, wants_live
from .progress_bar import progress_bar
from .scenarios import AGENT_HELP, add_input_arguments, add_max_turns_argument, given_limits, scenario_named
from .usage_error import UsageError


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "record",
        help=COMMANDS["record"],
        description="Run a scenario and write its trace. The file appears only when "
        "the run is over (written to a temporary FILE.*.partial, then "
        "renamed); an interrupted run leaves FILE as it was and keeps "
        "its partial trace as FILE.interrupted. Secrets (API keys from "
        "the environment, bearer tokens, sk-... keys, LOOPSCOPE_REDACT "
        "patterns) are replaced before writing.",
    )
    p.add_argument("scenario", help=AGENT_HELP)
    p.add_argument(
        "-o",
        "--output",
        help="where to write (default: the scenario's fixture in a checkout "
        "of loopscope, else ./NAME.jsonl; MODULE_FUNCTION.jsonl for your agent)",
    )
    p.add_argument(
        "--mode",
        choices=["once", "rewrite"],
        default="rewrite",
        help="once: keep an existing file; rewrite (default): record it again",
    )
    p.add_argument(
        "--redact", action="append", default=[], metavar="REGEX", help="also replace text matching REGEX (repeatable)"
    )
    add_input_arguments(p)
    add_max_turns_argument(p)
    add_live_arguments(p)
    return p


def record_run(
    scenario,
    output: str | Path,
    model: ChatModel | None = None,
    redactor: Redactor | None = None,
    live: LiveModel | None = None,
    lang: str = "en",
) -> tuple[int, Exception | None]:
    """Record one run of `scenario`; (events written, the error the run ended with or None)."""
    model = live.model if live else model or ScriptedModel(scenario.replies)
    # A manual clock makes a scripted recording byte-for-byte reproducible; a live run waits for real.
    clock = SystemClock() if live else ManualClock(tick=DEFAULT_CLOCK_TICK)
    meta = live.header() if live else {"clock_tick": DEFAULT_CLOCK_TICK}
    executor = scenario.executor(
        model, clock=clock, run_id_factory=lambda: scenario.name, **(live.executor_options() if live else {})
    )
    error = None
    writer = TraceWriter(output, redactor=redactor, **header_meta(scenario), **meta)
    try:
        with writer, progress_bar(say("cli.record.progress", lang, name=scenario.name), stages=False) as report:
            # A live run can take minutes: the bar says how far it is (events and rounds so far).
            def so_far(event) -> None:
                words = say("cli.record.so_far", lang, events=f"{writer.count:,}", round=event.iteration)
                report(words, writer.count, 0)

            try:
                executor.invoke(scenario.inputs(), [writer, so_far])
            except Exception as failure:  # failure scenarios end in chain_error; the trace records it
                error = failure
    except KeyboardInterrupt:
        raise KeyboardInterrupt(writer.interrupted_words()) from None
    return writer.count, error


def record_scenario(scenario, output) -> int:
    return record_run(scenario, output)[0]


def run(args: argparse.Namespace) -> int:
    lang = command_language(args)  # record has no --lang: the locale's
    if is_agent_spec(args.scenario):
        from .record_framework import framework_agent_named, record_framework_agent  # late: loads the agent

        agent = framework_agent_named(args.scenario, offline=bool(getattr(args, "replies", None)))
        if agent is not None:
            return record_framework_agent(agent, args)
    given_limits(args, None)  # --max-turns names a framework agent's limit: not loopscope's own agents'
    scenario = scenario_named(args.scenario, args)
    if is_agent_spec(args.scenario) and not wants_live(args) and not scenario.replies:
        raise usage_error("cli.record.error.no_replies", args, agent=args.scenario)
    output = Path(args.output) if args.output else getattr(scenario, "recording", scenario.fixture)
    if not should_record(RecordMode.parse(args.mode), output):
        print(scrub(say("cli.record.kept", lang, path=output)))
        return 0
    live = live_model(args, scenario.replies, SystemClock()) if wants_live(args) else None
    try:
        redactor = live.redactor(args.redact) if live else default_redactor(args.redact)
    except ValueError as bad_redaction:
        raise UsageError(str(bad_redaction)) from None
    try:
        count, error = record_run(scenario, output, redactor=redactor, live=live, lang=lang)
    except TraceWriteError as failure:
        print(f"loopscope: {scrub(failure)}", file=sys.stderr)
        return 1
    except UnknownAgent as failure:  # the user's build(model) raised, or returned no AgentExecutor
        raise UsageError(failure.args[0]) from None
    except (ImportError, ToolError) as failure:  # a scenario's tools could not be made (an MCP server, its SDK)
        raise usage_error("cli.record.error.tools", args, agent=args.scenario, problem=failure) from None
    # The model's name may come from .env and the error from a server: every line is shown literally.
    if live:
        said = say("cli.record.recorded_live", lang, count=count, name=scenario.name, spec=live.spec, path=output)
    else:
        said = say("cli.record.recorded", lang, count=count, name=scenario.name, path=output)
    print(scrub(said))
    if error is not None:
        error_type = type(error).__name__
        if getattr(scenario, "expect_error", False):
            print(scrub(say("cli.record.ended_as_intended", lang, error_type=error_type)))
        else:
            print(scrub(say("cli.record.ended", lang, error_type=error_type, error=redactor.redact_text(str(error)))))
    return 0
