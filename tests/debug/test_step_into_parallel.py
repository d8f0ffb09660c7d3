"""Live step-into a tool-calling agent's parallel call: its worker thread is followed while the other calls wait."""

from __future__ import annotations

import sys
import threading

import pytest

from tests.helpers.parallel_agent import recorded_parallel
from tracer.debug.live_run import LiveRun
from tracer.debug.step_into import LineStop


@pytest.fixture
def parallel(tmp_path, monkeypatch):
    yield recorded_parallel(tmp_path, monkeypatch)
    sys.modules.pop("parallel", None)


def _to_tool_start(run: LiveRun, tool: str):
    while True:
        pulled = run.pull()
        assert isinstance(pulled, tuple), run.outcome
        if pulled[0].kind == "tool_start" and pulled[0].tool == tool:
            return pulled[0]


def _rest(run: LiveRun) -> list:
    events = []
    while (pulled := run.pull()) is not None:
        assert not isinstance(pulled, LineStop)
        events.append(pulled[0])
    return events


@pytest.mark.parametrize("tool", ["quote", "count"])
def test_s_at_a_parallel_tool_start_follows_that_calls_thread_while_the_other_call_waits(parallel, tool):
    trace, module, line_of = parallel
    run = LiveRun("parallel:build", None, fixture=trace)
    start = _to_tool_start(run, tool)
    assert start.tool_call_id is not None and "perform_tool_calls" in start.frames
    assert run.why_not_step_into(start) is None
    assert tool not in module.RAN, "held at its tool_start: the function has not started"
    run.step_into(start, "step")
    stop = run.pull()
    assert isinstance(stop, LineStop) and stop.frame.line == line_of(f'RAN.append("{tool}")')
    assert dict(stop.frame.locals)["item"] == "'rose'"
    run.step_into(start, "step")  # s inside: the next line
    stop = run.pull()
    assert isinstance(stop, LineStop) and stop.frame.line == line_of(f'RAN.append("{tool}")') + 1
    assert module.RAN[-1] == tool
    if tool == "quote":  # the first call: the other is held at its tool_start, its function not started
        assert module.RAN == ["quote"]
    run.step_into(start, "lines")  # r: run the function to its end
    rest = _rest(run)
    assert not run.tracing and sys.gettrace() is None
    ended = {e.tool_call_id: e.observation for e in rest if e.kind == "tool_end"}
    assert ended[start.tool_call_id] in ("30.00", "40 roses")
    assert sorted(module.RAN) == ["count", "quote"] and str(run.outcome) == "the run finished"


def test_a_line_breakpoint_in_a_parallel_tool_stops_on_its_line(parallel):
    trace, _module, line_of = parallel
    run = LiveRun("parallel:build", None, fixture=trace)
    assert "quote" in run.traced_tools()
    start = _to_tool_start(run, "quote")
    run.step_into(start, "lines", frozenset({line_of("total = each")}))
    stop = run.pull()
    assert isinstance(stop, LineStop) and stop.reason == "breakpoint"
    assert stop.frame.line == line_of("total = each") and dict(stop.frame.locals)["each"] == "2.5"
    run.step_into(start, "lines", frozenset({line_of("total = each")}))
    assert _rest(run)[-1].kind == "chain_end" and not run.tracing


def test_closing_the_debugger_inside_a_parallel_call_stops_every_thread(parallel):
    trace, _module, _line_of = parallel
    run = LiveRun("parallel:build", None, fixture=trace)
    start = _to_tool_start(run, "quote")
    run.step_into(start, "step")
    assert isinstance(run.pull(), LineStop)
    before = threading.active_count()
    run.close()
    assert run.finished and str(run.outcome) == "the run was stopped"
    assert not run.tracing
    assert threading.active_count() <= before
