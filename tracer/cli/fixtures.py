"""`loopscope fixtures [TRACE...] [--rerecord]`: are recorded fixtures current with today's code; write them anew."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..agents.scenario_registry import registered_scenarios
from ..replay.rerecord import rewrite_from_rerun
from ..replay.verify import VerifyResult, verify_trace
from ..trace.header import TraceHeader
from ..trace.literal_text import scrub
from ..trace.reader import TraceFile, TraceFormatError
from . import COMMANDS
from .language import usage_error
from .record import record_run
from .scenarios import add_agent_argument
from .verify import expand

RERECORD = "loopscope fixtures --rerecord"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "fixtures",
        help=COMMANDS["fixtures"],
        description="Check that recorded traces are current: their events still match a re-run "
        "(verify) and every event's source line is where today's code emits it. With "
        "--rerecord, write the stale ones anew: a scenario's fixture is recorded again "
        "from its scripted replies, any other trace from its own re-run (only when its "
        "events still match). Without TRACE: the fixtures of the installed scenarios "
        "(in a checkout, fixtures/).",
    )
    p.add_argument("traces", nargs="*", metavar="TRACE", help="trace files, or directories of *.jsonl")
    p.add_argument("--rerecord", action="store_true", help="write every trace that is not current anew")
    add_agent_argument(p)
    return p


def _shown(path: Path) -> Path:
    """A path as a person in this folder would type it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def scenario_fixtures() -> dict[Path, Any]:
    """Each installed scenario's fixture that exists, by its resolved path."""
    found = {}
    for scenario in registered_scenarios().values():
        path = getattr(scenario, "fixture", None)
        if isinstance(path, Path) and path.is_file():
            found[path.resolve()] = scenario
    return found


def _state(result: VerifyResult, header: TraceHeader) -> str:
    if getattr(header, "source", None) == "langchain":
        return "langchain"
    if result.status == "ok" and result.moved_count:
        return "moved"
    if result.status == "ok":
        return "hashes" if "executor_hashes" in header.model_fields_set else "current"
    return result.status


def _check_line(path: Path, state: str, result: VerifyResult) -> str:
    return {
        "current": f"current    {path}",
        "moved": f"MOVED      {path}  {result.moved_count} recorded line(s) moved: {'; '.join(result.moved)}",
        "langchain": f"LANGCHAIN  {path}  recorded from LangChain's own run: its lines are LangChain's, "
        "not loopscope's, and no installed scenario records it; re-record it with the script that made it",
        "hashes": f"HASHES     {path}  its header carries the executor's file hashes (an older loopscope "
        "wrote it); its events and lines are current",
    }.get(state, f"{state.upper():<10} {path}  {result.message.splitlines()[0] if result.message else ''}")


def _rerecord(path: Path, state: str, scenario: Any, agents: list[str]) -> str:
    framework = getattr(scenario, "framework", "")
    if framework:  # recorded by another framework's loop: loopscope's executor must not write over it
        return f"FRAMEWORK  {path}  recorded from {framework}'s own loop; re-record it with the script that made it"
    if scenario is not None:  # a shipped scenario is recorded from its script, whatever changed
        count, _error = record_run(scenario, path)
        why = {"moved": "with today's lines", "hashes": "without the old executor hashes"}.get(
            state, "its events changed: read `git diff` before you commit it"
        )
        return f"recorded   {path}  ({count} events of {scenario.name}; {why})"
    if state not in ("moved", "hashes"):
        raise usage_error("cli.fixtures.error.cannot_rewrite", None, path=path, state=state)
    return f"rewritten  {path}  ({rewrite_from_rerun(path, agents)} events, today's lines)"


def _langchain_fixture(path: Path, scenario: Any, rerecord: bool) -> tuple[str, bool]:
    """A fixture recorded from LangChain's own run: recorded again with the installed LangChain and
    compared event by event (frames' lines included), or written anew. (its line, whether it is current)"""
    try:
        # Here, not at the top: the bridge needs the optional LangChain packages, and only these fixtures need it.
        from ..bridges.langchain_fixtures import record_fixture, recording_differs
    except ImportError as missing:
        return f"LANGCHAIN  {path}  recorded from LangChain's own run; {missing} (so it is not checked)", True
    command = f"loopscope fixtures --rerecord {path}"
    try:
        difference = recording_differs(scenario, path)
        if difference is None:  # current: not rewritten (LangChain's run ids are new on every run)
            return f"current    {path}  (LangChain's own run, recorded again and compared)", True
        if rerecord:
            count = record_fixture(scenario, path)
            return f"recorded   {path}  ({count} events of {scenario.name}, from LangChain's own run)", True
    except Exception as error:  # LangChain, the scenario or the file failed: say which, in one line, and go on
        return f"FAILED     {path}  LangChain's run of {scenario.name} failed: {type(error).__name__}: {error}", False
    return f"CHANGED    {path}  LangChain's run recorded now differs ({difference}); `{command}` writes it anew", False


def _header(path: Path) -> TraceHeader:
    try:
        with TraceFile(path) as trace:
            return trace.header
    except TraceFormatError:
        return TraceHeader()  # verify has said why


def run(args: argparse.Namespace) -> int:
    scenarios = scenario_fixtures()
    paths = expand(args.traces) if args.traces else sorted(scenarios)
    if not paths:
        raise usage_error("cli.fixtures.error.none", args)
    stale = 0
    for path in paths:
        result, path = verify_trace(path, args.agents), _shown(path)
        state = _state(result, _header(path))
        recorder = scenarios.get(path.resolve())
        if state == "langchain" and getattr(recorder, "langchain_run", None) is not None:
            line, current = _langchain_fixture(path, recorder, args.rerecord)
            print(scrub(line))
            stale += not current
            continue
        if state in ("current", "langchain"):
            print(scrub(_check_line(path, state, result)))
            continue
        stale += 1
        scenario = scenarios.get(path.resolve())
        print(
            scrub(_rerecord(path, state, scenario, args.agents) if args.rerecord else _check_line(path, state, result))
        )
    if stale and not args.rerecord:
        print(f"{stale} of {len(paths)} not current: `{RERECORD}` writes them anew")
        return 1
    return 0
