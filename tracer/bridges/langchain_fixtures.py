"""Fixtures recorded from LangChain's own runs: written again with the real LangChain, and compared with a fresh recording."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from executor.clock import ManualClock

from ..trace.reader import load_trace
from .langchain_handler import LoopscopeCallbackHandler

# Fields that differ between two recordings of the same run: LangChain's run ids are new every run.
_VOLATILE = frozenset({"run_id", "parent_run_id"})


class LangChainRecordingError(Exception):
    """A LangChain fixture could not be recorded; one line saying why."""


def record_fixture(scenario: Any, path: str | os.PathLike[str]) -> int:
    """Run the scenario's LangChain agent (`scenario.langchain_run`) with LoopscopeCallbackHandler writing
    `path`, its time and waits on a manual clock (so a backoff's sleeps take no time and its delays are
    exact). Returns how many events were written."""
    if scenario.langchain_run is None:
        raise LangChainRecordingError(f"scenario {scenario.name!r} is not recorded from a LangChain run")
    clock = ManualClock()
    with LoopscopeCallbackHandler(
        path, raise_error=True, clock=clock.monotonic, scenario=scenario.name, clock_tick=0.0
    ) as handler:
        scenario.langchain_run([handler], clock)
    if handler.problem:
        raise LangChainRecordingError(handler.problem)
    return len(handler.events)


def recording_differs(scenario: Any, path: str | os.PathLike[str]) -> str | None:
    """Record the scenario again and compare it with the fixture at `path`, event by event (their
    frames' lines included): None when they agree, else where they first part, in one line."""
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "fresh.jsonl"
        record_fixture(scenario, fresh)
        _header, new, _warning = load_trace(fresh)
    _header, old, _warning = load_trace(path)
    for old_event, new_event in zip(old, new):
        a, b = _comparable(old_event), _comparable(new_event)
        if a != b:
            field = next((key for key in {*a, *b} if a.get(key) != b.get(key)), "?")
            return f"event {old_event.seq} ({old_event.kind}) differs in {field}"
    if len(old) != len(new):
        return f"{len(old)} events recorded, {len(new)} now"
    return None


def _comparable(event: Any) -> dict[str, Any]:
    data = event.model_dump(mode="json")
    data.pop("run_id", None)
    origin = data.get("origin") or {}
    data["origin"] = {key: value for key, value in origin.items() if key not in _VOLATILE}
    return data
