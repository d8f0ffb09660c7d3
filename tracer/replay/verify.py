"""Re-executing a recorded trace with today's executor and saying whether it still does the same thing."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from executor import AgentExecutor, ManualClock
from executor.events import EventBase

from ..trace.normalise import Difference, first_difference, normalise_events
from ..trace.reader import TraceFormatError, load_trace
from ..trace.redact import Redactor, default_redactor
from ..trace.writer import executor_source_hashes
from .cassette import ReplayDivergence, build_from_recording

# What `loopscope record` runs with; traces without a clock_tick in their header get it too.
DEFAULT_CLOCK_TICK = 0.001


@dataclass
class Rerun:
    """What a re-execution produced: every event, and the result or the exception it ended with."""

    events: list[EventBase]
    result: dict[str, Any] | None = None
    error: BaseException | None = None

    @property
    def divergence(self) -> ReplayDivergence | None:
        return self.error if isinstance(self.error, ReplayDivergence) else None


def run_collecting(executor: AgentExecutor, inputs: dict[str, Any], listeners: Iterable = ()) -> Rerun:
    """Drain a run into a list. A run that raises still hands back every event up to chain_error."""
    rerun = Rerun([])
    try:
        rerun.result = executor.invoke(inputs, [rerun.events.append, *listeners])
    except Exception as error:  # scenarios may end in an error on purpose; the caller compares
        rerun.error = error
    return rerun


def replay_clock(header: dict[str, Any]) -> ManualClock:
    """A manual clock ticking as the recording's did, so time limits trip at the same point."""
    tick = header.get("clock_tick", DEFAULT_CLOCK_TICK)
    return ManualClock(tick=tick if isinstance(tick, (int, float)) else DEFAULT_CLOCK_TICK)


def recorded_in_real_time(header: dict[str, Any]) -> bool:
    """A trace recorded against the system clock (a live run) rather than a manual one."""
    return "clock_tick" not in header and bool(header.get("live"))


def replay_settings(header: dict[str, Any], recorded: Sequence[EventBase]) -> dict[str, Any]:
    """Executor settings that make a re-execution behave as the recording did: the same kind
    of clock, the same run id, and the retry policy a live recording names in its header."""
    from .live_model import recorded_retry_policy

    run_id = recorded[0].run_id if recorded else "replay"
    settings: dict[str, Any] = {"clock": replay_clock(header), "run_id_factory": lambda: run_id}
    policy = recorded_retry_policy(header)
    if policy is not None:
        settings["retry_policy"] = policy
    return settings


def reexecute_scenario(header: dict[str, Any], recorded: Sequence[EventBase]) -> Rerun:
    """Run the header's scenario again with the recording as its cassette."""
    from tutorials import get_scenario

    scenario = get_scenario(header["scenario"])
    model, tools = build_from_recording(scenario.build_tools, recorded)
    executor = scenario.executor(model, tools, **replay_settings(header, recorded))
    return run_collecting(executor, scenario.inputs())


# Events that say how long something waited, not what the loop decided. A run recorded in
# real time cannot be expected to wait at the same moments when it is replayed.
TIMING_KINDS = frozenset({"rate_limit_wait"})


def compare_runs(recorded: Sequence[EventBase], rerun: Sequence[EventBase],
                 redactor: Redactor | None = None, ignore_timing: bool = False) -> Difference | None:
    """The first difference after normalising; the re-run is redacted as the recording was."""
    redact = (redactor or default_redactor()).redact
    if ignore_timing:
        recorded = [e for e in recorded if e.kind not in TIMING_KINDS]
        rerun = [e for e in rerun if e.kind not in TIMING_KINDS]
    return first_difference(normalise_events(recorded), normalise_events(rerun, redact))


@dataclass
class VerifyResult:
    """The verdict on one trace file."""

    path: Path
    status: str  # ok | diverged | truncated | unreadable
    message: str = ""
    events: int = 0
    difference: Difference | None = None
    notes: list[str] = field(default_factory=list)
    executor_changed: list[str] = field(default_factory=list)  # executor files edited since recording

    @property
    def exit_code(self) -> int:
        return {"ok": 0, "diverged": 1}.get(self.status, 2)


def changed_executor_files(header: dict[str, Any]) -> list[str]:
    recorded = header.get("executor_hashes") or {}
    current = executor_source_hashes()
    return sorted(name for name in set(recorded) | set(current) if recorded.get(name) != current.get(name))


def verify_trace(path: str | os.PathLike[str]) -> VerifyResult:
    """Re-execute one trace and compare; never raises for a bad file, it becomes the verdict."""
    path = Path(path)
    try:
        header, recorded, warning = load_trace(path)
    except TraceFormatError as error:
        return VerifyResult(path, "unreadable", str(error))
    scenario = header.get("scenario")
    if not scenario:
        return VerifyResult(path, "unreadable", f"{path}:1: the header names no scenario, so there is "
                            "nothing to re-execute; verify such traces in pytest with loopscope_cassette")
    try:
        rerun = reexecute_scenario(header, recorded)
    except KeyError as error:
        return VerifyResult(path, "unreadable", f"{path}:1: {error.args[0]}")
    difference = compare_runs(recorded, rerun.events, ignore_timing=recorded_in_real_time(header))
    result = VerifyResult(path, "ok", events=len(recorded), difference=difference)
    if warning:
        prefix = "they match the re-run" if difference is None or difference.field == "(extra)" \
            else f"they differ from the re-run at {difference.headline()}"
        result.status, result.message = "truncated", f"{warning}; {prefix}"
        return result
    if difference is not None:
        result.status, result.message = "diverged", difference.explain()
        if "fork" in header and "observation" in (header.get("fork") or {}):
            result.notes.append(f"this trace forks {header.get('parent')} at event {header.get('fork_at')} "
                                "with a substituted tool result; if that tool really runs on replay "
                                "(like the Calculator) the re-run cannot follow the fork")
        if rerun.divergence is not None and rerun.divergence.seq != difference.seq:
            result.notes.append("the cassette stopped the re-run: " + str(rerun.divergence).splitlines()[0])
    result.executor_changed = changed_executor_files(header)
    return result
