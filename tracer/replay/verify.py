"""Re-executing a recorded trace with today's executor and saying whether it still does the same thing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, cast

from executor import AgentExecutor
from executor.events import Event, EventBase

from ..agents.framework_agent import load_framework_agent
from ..agents.frameworks import recorded_by_framework
from ..agents.scenario_registry import UnknownAgent
from ..agents.trust import UntrustedAgent, trusted_agent, trusted_or_none
from ..agents.user_agent import agent_source_note
from ..trace.literal_text import scrub
from ..trace.normalise import (
    Difference,
    first_difference,
    in_call_order,
    normalise_events,
)
from ..trace.reader import TraceFormatError
from ..trace.redact import Redactor, default_redactor
from ..trace.transitions import Trace
from .builder import replayed_executor
from .framework_rerun import compare_framework_runs, rerun_framework_agent
from .recorded_answers import ReplayDivergence


@dataclass
class Rerun:
    """What a re-execution produced: every event, and the result or the exception it ended with."""

    events: list[Event]
    result: dict[str, Any] | None = None
    error: BaseException | None = None

    @property
    def divergence(self) -> ReplayDivergence | None:
        return self.error if isinstance(self.error, ReplayDivergence) else None


def run_collecting(
    executor: AgentExecutor, inputs: dict[str, Any], listeners: Iterable = (), entry: str = "invoke"
) -> Rerun:
    """Drain a run into a list. A run that raises still hands back every event up to chain_error.
    `entry`: how the recording was started (recorded_entry), so the re-run's call stacks are the same."""
    rerun = Rerun([])
    # The executor types its listeners by the base class, but every event it makes is one of the union's.
    collect = cast(Callable[[EventBase], None], rerun.events.append)
    try:
        rerun.result = run_from(entry, executor, inputs, [collect, *listeners])
    except Exception as error:  # scenarios may end in an error on purpose; the caller compares
        rerun.error = error
    return rerun


def recorded_entry(events: Sequence[EventBase]) -> str:
    """ "invoke" when the recorded run was started with invoke (its stacks start there), else
    "iter_events": a run pulled with iter_events, or awaited with ainvoke / aiter_events, whose stacks
    start at iter_events. Re-run synchronously from iter_events, the same events come out."""
    first = events[0] if events else None
    return "iter_events" if first is not None and first.frames[:1] == ("iter_events",) else "invoke"


def run_from(entry: str, executor: AgentExecutor, inputs: dict[str, Any], listeners: Sequence[Any]) -> dict[str, Any]:
    """The run started as `entry` says (see recorded_entry), every event fed to `listeners`."""
    if entry == "invoke":
        return executor.invoke(inputs, listeners)
    return drain_events(executor.iter_events(inputs), listeners)


def drain_events(events: Any, listeners: Sequence[Any]) -> dict[str, Any]:
    """iter_events pulled to its end, as a user's own loop over it would (the live debugger reads `events`)."""
    while True:
        try:
            event = next(events)
        except StopIteration as stop:
            return stop.value
        for listener in listeners:
            listener(event)


def reexecute(trace: Trace, agents: Sequence[str] = ()) -> Rerun:
    """Run the agent the header names again (if it is a scenario or trusted), with the recording as its cassette."""
    executor = replayed_executor(trace, agents=agents)
    return run_collecting(executor, recorded_inputs(trace), entry=recorded_entry(trace.events))


def recorded_inputs(trace: Trace) -> dict[str, Any]:
    """The inputs the recorded run was invoked with (its chain_start)."""
    first = trace.events[0] if trace.events else None
    if first is None or first.kind != "chain_start":
        raise UnknownAgent("the trace does not start with chain_start, so its inputs are unknown")
    return dict(first.inputs)


# Events that say how long something waited, not what the loop decided. A run recorded in
# real time cannot be expected to wait at the same moments when it is replayed.
TIMING_KINDS = frozenset({"rate_limit_wait"})


def compare_runs(
    recorded: Sequence[EventBase],
    rerun: Sequence[EventBase],
    redactor: Redactor | None = None,
    ignore_timing: bool = False,
) -> Difference | None:
    """The first difference after normalising; the re-run is redacted as the recording was."""
    redact = (redactor or default_redactor()).redact
    if ignore_timing:
        recorded = [e for e in recorded if e.kind not in TIMING_KINDS]
        rerun = [e for e in rerun if e.kind not in TIMING_KINDS]
    # Concurrent tool calls interleave as the threads ran; compare each call's lane in call order.
    return first_difference(in_call_order(normalise_events(recorded)), in_call_order(normalise_events(rerun, redact)))


@dataclass
class VerifyResult:
    """The verdict on one trace file."""

    path: Path
    status: str  # ok | diverged | truncated | unreadable | untrusted
    message: str = ""
    events: int = 0
    difference: Difference | None = None
    notes: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # recorded lines the code no longer has there (first few)
    moved_count: int = 0

    @property
    def exit_code(self) -> int:
        return {"ok": 0, "diverged": 1}.get(self.status, 2)


def verify_trace(path: str | os.PathLike[str], agents: Sequence[str] = ()) -> VerifyResult:
    """Re-execute one trace and compare; never raises for a bad file, it becomes the verdict.

    agents: the user's own agents (MODULE:FUNCTION specs) that a header may name; without them
    (or a [tool.loopscope] agents entry in pyproject.toml) a trace's agent is never imported.
    """
    path = Path(path)
    try:
        trace = Trace.load(path)
    except TraceFormatError as error:
        return VerifyResult(path, "unreadable", str(error))
    header, recorded = trace.header, trace.events
    if trace.warning and not recorded:
        return VerifyResult(path, "truncated", trace.warning)
    if recorded_by_framework(header):  # a LangChain handler's, or a framework adapter's (header "framework")
        return verify_framework_trace(path, trace, agents)
    try:
        rerun = reexecute(trace, agents)
    except UntrustedAgent as error:
        return VerifyResult(path, "untrusted", f"{path}:1: {error.args[0]}")
    except UnknownAgent as error:
        return VerifyResult(path, "unreadable", f"{path}:1: {error.args[0]}")
    difference = compare_runs(recorded, rerun.events, ignore_timing=header.recorded_in_real_time)
    result = VerifyResult(path, "ok", events=len(recorded), difference=difference)
    if trace.warning:
        prefix = (
            "they match the re-run"
            if difference is None or difference.field == "(extra)"
            else f"they differ from the re-run at {difference.headline()}"
        )
        result.status, result.message = "truncated", f"{trace.warning}; {prefix}"
        return result
    if difference is not None:
        result.status, result.message = "diverged", difference.explain()
        if header.fork and "observation" in header.fork:
            result.notes.append(
                f"this trace forks {header.parent} at event {header.fork_at} "
                "with a substituted tool result; if that tool really runs on replay "
                "(like the Calculator) the re-run cannot follow the fork"
            )
        if rerun.divergence is not None and rerun.divergence.seq != difference.seq:
            result.notes.append("the cassette stopped the re-run: " + str(rerun.divergence).splitlines()[0])
    if result.status == "ok":
        result.moved, result.moved_count = moved_lines(recorded, rerun.events)
    note = agent_source_note(trusted_or_none(header.agent, agents), header.agent_hash)
    if note:
        result.notes.append(note + ("; its events still match" if result.status == "ok" else ""))
    return result


def verify_framework_trace(path: Path, trace: Trace, agents: Sequence[str]) -> VerifyResult:
    """A run recorded from a framework's agent (a LangGraph graph, an Agents SDK or pydantic-ai Agent) re-run
    through that framework, offline."""
    header = trace.header
    framework = getattr(header, "framework", None) or "LangChain"
    if header.agent is None and not agents:
        return VerifyResult(
            path,
            "unreadable",
            f"{path}:1: recorded from a {framework} run whose agent is not named; to re-run it offline, "
            "pass the agent that recorded it: --agent MODULE:ATTR (the agent object, or a function returning one)",
        )
    try:
        agent = load_framework_agent(trusted_agent(header.agent, agents), offline=True)
    except UntrustedAgent as error:
        return VerifyResult(path, "untrusted", f"{path}:1: {error.args[0]}")
    except UnknownAgent as error:
        return VerifyResult(path, "unreadable", f"{path}:1: {error.args[0]}")
    if agent is None:
        return VerifyResult(
            path, "unreadable", f"{path}:1: recorded from a {framework} run, but the agent given is loopscope's own"
        )
    events, raised = rerun_framework_agent(agent, trace)
    difference = compare_framework_runs(trace.events, events)
    result = VerifyResult(path, "ok", events=len(trace.events), difference=difference)
    if difference is not None:
        result.status, result.message = "diverged", difference.explain()
        if raised is not None:
            first_line = str(raised).splitlines()[0] if str(raised) else ""
            result.notes.append(f"the re-run raised {type(raised).__name__}: {scrub(first_line)}")
    note = agent_source_note(trusted_or_none(header.agent, agents), header.agent_hash)
    if note:
        result.notes.append(note + ("; its events still match" if result.status == "ok" else ""))
    return result


def _line_rows(events: Sequence[EventBase]) -> list[dict[str, Any]]:
    """Each event's kind, lane and the source lines it records (its own, and its callee's)."""
    rows = []
    for event in events:
        source, callee = event.source, getattr(event, "callee", None)
        rows.append(
            {
                "seq": event.seq,
                "kind": event.kind,
                "tool_call_id": getattr(event, "tool_call_id", None),
                "at": f"{source.file}:{source.line}" if source else None,
                "callee": f"{_portable(callee.file)}:{callee.line}" if callee else None,
            }
        )
    return in_call_order(rows)


def _portable(file: str) -> str:
    """A callee's file as compared across machines: a file outside the project is an absolute path that
    differs from one checkout (or temporary folder) to another, so only its name counts, as in normalise."""
    path = PurePath(file)
    return path.name if path.is_absolute() else file


def moved_lines(recorded: Sequence[EventBase], rerun: Sequence[EventBase], keep: int = 3) -> tuple[list[str], int]:
    """Events whose recorded source line is not where today's code emits them (a moved line is not a
    changed behaviour, so verify does not fail on it; but the debugger shows the recorded line until a
    re-run says otherwise): the first `keep`, described, and how many in all."""
    moved = []
    for old, new in zip(_line_rows(recorded), _line_rows(rerun)):
        for field_name in ("at", "callee"):
            if old[field_name] != new[field_name]:
                moved.append(f"event {old['seq']} ({old['kind']}): {old[field_name]} is now {new[field_name]}")
    return moved[:keep], len(moved)
