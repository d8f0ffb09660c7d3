"""The tool-calling tutorials: the staged latencies repeat in every run, and the real debugger walks every stop."""

import shutil

import pytest

from executor import ManualClock, ScriptedModel
from tests.helpers.pilot_helpers import until
from tracer.trace.reader import load_trace
from tracer.tui.app import DebuggerApp
from tracer.tui.launch import build_session
from tracer.tui.views.narration_view import narration_text
from tutorials import SCENARIOS
from tutorials.narration import tutorial_stops
from tutorials.weather import LATENCY

NEW_PARTS = ["parallel-tools", "context-budget-trim", "context-budget-summarize", "structured-output"]


def lane_times(events):
    """(kind, call id, t) of every tool event, sorted by call: what the lanes show."""
    return sorted(
        (e.tool_call_id, e.kind, round(e.t, 3)) for e in events if e.kind in ("tool_start", "tool_end", "tool_error")
    )


def run_parallel_scenario():
    scenario = SCENARIOS["parallel-tools"]
    events = []
    executor = scenario.executor(
        ScriptedModel(scenario.replies), clock=ManualClock(tick=0.001), run_id_factory=lambda: "parallel-tools"
    )
    executor.invoke(scenario.inputs(), [events.append])
    return events


def test_the_slow_and_failing_lookups_end_at_the_same_moments_in_every_run_and_as_recorded():
    recorded = load_trace(SCENARIOS["parallel-tools"].fixture)[1]
    first, second = lane_times(run_parallel_scenario()), lane_times(run_parallel_scenario())
    # Which thread emits its tool_start first is up to the threads: the clock's 1 ms tick per read
    # may land on another lane, so times agree to a few ticks; the staged latencies agree exactly.
    for run in (second, lane_times(recorded)):
        assert [(i, k) for i, k, _ in run] == [(i, k) for i, k, _ in first]
        assert all(abs(a[2] - b[2]) <= 0.005 for a, b in zip(run, first)), (run, first)
    ends = {call_id: t for call_id, kind, t in first if kind == "tool_end"}
    starts = {call_id: t for call_id, kind, t in first if kind == "tool_start"}
    # every lane starts before any ends (they overlap), and each ends after its city's latency
    assert max(starts.values()) < min(ends.values())
    for call_id, city in [("call_bj", "Beijing"), ("call_sh", "Shanghai"), ("call_gz", "Guangzhou")]:
        assert LATENCY[city] <= ends[call_id] - starts[call_id] < LATENCY[city] + 0.05


@pytest.mark.slow
@pytest.mark.parametrize("part", NEW_PARTS)
async def test_the_real_debugger_walks_every_stop_with_space(tmp_path, part):
    scenario = SCENARIOS[part]
    path = shutil.copy(scenario.fixture, tmp_path / scenario.fixture.name)  # sidecars go to tmp
    stops = tutorial_stops(part, "en", load_trace(scenario.fixture)[1])
    app = DebuggerApp(build_session(path, stops=stops, title=part))
    async with app.run_test(size=(140, 45)) as pilot:
        for stop in stops:  # the debugger opens on event 0; space goes to the next stop
            await pilot.press("space")
            await until(pilot, lambda seq=stop.seq: app.session.position == seq)
            assert app.session.position == stop.seq
            assert stop.title in narration_text(app.session).plain
