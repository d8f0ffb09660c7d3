"""Stepping over the rose-pricing run: step, next, step out and continue, both ways, with breakpoints."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROSE
from tracer.debug.breakpoints import BreakpointSet
from tracer.debug.conditions import resolve_in
from tracer.debug.stepping import Motion, MotionSearch, move
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile

S, N, R, C = Motion.STEP, Motion.NEXT, Motion.OUT, Motion.CONTINUE


@pytest.fixture(scope="module")
def rose():
    trace = TraceFile(ROSE)
    yield trace, TraceIndex.build(trace)
    trace.close()


def go(rose, origin, motion, direction=1, breakpoints=None):
    trace, index = rose
    return move(
        index, breakpoints or BreakpointSet(), lambda i: resolve_in(trace.fields(i), i), origin, motion, direction
    )


@pytest.mark.parametrize(
    "origin, motion, direction, expected, reason",
    [
        (0, S, 1, 1, "step"),
        (5, S, -1, 4, "step"),
        (1, N, 1, 2, "next"),  # llm_start -> llm_end, same frame
        (3, N, 1, 6, "next"),  # agent_action: steps over the whole tool run to the step event
        (11, N, 1, 15, "next"),  # Calculator tool_start -> tool_end, over its nested model call
        (15, N, -1, 11, "next"),
        (12, R, 1, 14, "out"),  # out of call_model into calculate: calculator_eval
        (14, R, 1, 15, "out"),  # out of calculate into run: tool_end
        (1, R, 1, 3, "out"),  # out of call_model (and plan) to the agent_action
        (14, R, -1, 11, "out"),  # back to where run was before calculate was entered
        (0, C, 1, 22, "end"),
        (22, C, -1, 0, "start"),
    ],
)
def test_motions_on_the_rose_run(rose, origin, motion, direction, expected, reason):
    stop = go(rose, origin, motion, direction)
    assert (stop.position, stop.reason) == (expected, reason)


def test_step_out_of_the_outermost_frame_runs_to_the_end(rose):
    assert go(rose, 0, R).position == 22


def test_stepping_past_the_edges_does_not_move(rose):
    assert (go(rose, 22, S).position, go(rose, 22, S).moved) == (22, False)
    assert (go(rose, 0, S, -1).position, go(rose, 0, N, -1).moved) == (0, False)


def test_next_stops_at_a_breakpoint_inside_what_it_steps_over(rose):
    breakpoints = BreakpointSet()
    bp = breakpoints.add("calculator_eval")
    stop = go(rose, 11, N, breakpoints=breakpoints)
    assert (stop.position, stop.reason, stop.breakpoints) == (14, "breakpoint", [bp])


def test_continue_both_ways_between_breakpoints(rose):
    breakpoints = BreakpointSet()
    breakpoints.add("tool=Calculator")
    breakpoints.add("iteration=3")
    assert go(rose, 0, C, breakpoints=breakpoints).position == 11
    assert go(rose, 11, C, breakpoints=breakpoints).position == 18
    assert go(rose, 18, C, breakpoints=breakpoints).position == 22
    assert go(rose, 22, C, -1, breakpoints=breakpoints).position == 18
    assert go(rose, 18, C, -1, breakpoints=breakpoints).position == 11


def test_a_live_search_waits_for_more_events_then_resumes(rose):
    trace, _full = rose
    live = TraceIndex()
    for i in range(5):  # the live run has produced events 0..4 so far
        live.append(trace[i])
    resolve_at = lambda i: resolve_in(trace.fields(i), i)  # noqa: E731
    search = MotionSearch(live, BreakpointSet(), resolve_at, 3, Motion.NEXT, 1)
    assert search.advance(complete=False) is None  # not stopped yet: pull another event
    live.append(trace[5])
    assert search.advance(complete=False) is None
    live.append(trace[6])
    stop = search.advance(complete=False)
    assert (stop.position, stop.reason) == (6, "next")
    assert search.cursor == 5  # events already examined are not examined again


@pytest.fixture(scope="module")
def parallel():
    from tests.helpers.paths import FIXTURES

    trace = TraceFile(FIXTURES / "parallel_tools.jsonl")
    yield trace, TraceIndex.build(trace)
    trace.close()


def kinds_and_ids(trace, position):
    fields = trace.fields(position)
    return fields["kind"], fields.get("tool_call_id")


@pytest.mark.parametrize("origin", [3, 4, 5, 6, 7, 9])  # an action of the round, or an event inside a lane
def test_step_over_on_the_acting_phase_runs_every_call(parallel, origin):
    trace, _ = parallel
    stop = go(parallel, origin, N)
    assert kinds_and_ids(trace, stop.position) == ("step", "call_bj")
    lanes = {
        trace.fields(i).get("tool_call_id")
        for i in range(origin, stop.position)
        if trace.fields(i)["kind"] in ("tool_end", "tool_error")
    }
    assert lanes == {"call_bj", "call_sh", "call_gz"} or origin > 6


def test_step_into_still_walks_the_lanes_one_event_at_a_time(parallel):
    trace, _ = parallel
    assert kinds_and_ids(trace, go(parallel, 6, S).position) == ("tool_start", "call_sh")


def test_a_search_given_up_pauses_at_the_last_event_it_checked_and_counts_hits_only_up_to_there(rose, monkeypatch):
    from tracer.debug import breakpoints as breakpoints_module

    trace, index = rose
    monkeypatch.setattr(breakpoints_module, "CANCEL_CHECK_EVERY", 1)
    resolve_at = lambda i: resolve_in(trace.fields(i), i)  # noqa: E731
    points = BreakpointSet()
    counting = points.add('if tool_input != "no such input"', save=False)  # checked event by event
    counting.ignore = 1000  # reached, counted, never stopped at
    asked = []

    def cancelled() -> bool:  # esc arrives once a few events have been checked
        asked.append(1)
        return len(asked) > 2

    def matching(lo: int, hi: int) -> int:
        return sum(1 for p in range(lo, hi + 1) if trace.fields(p).get("tool_input") is not None)

    stop = MotionSearch(index, points, resolve_at, 0, Motion.CONTINUE, 1).advance(cancelled=cancelled)
    assert stop.reason == "paused" and stop.moved and 0 < stop.position < len(index) - 1
    assert counting.hits == matching(1, stop.position) > 0  # every event up to the pause, none after it
    # Continuing from there checks the very next event on: no event is skipped or counted twice.
    again = MotionSearch(index, points, resolve_at, stop.position, Motion.CONTINUE, 1).advance()
    assert again.reason == "end" and counting.hits == matching(1, len(index) - 1)


def test_a_search_given_up_before_it_checked_anything_stays_put(rose, monkeypatch):
    from tracer.debug import breakpoints as breakpoints_module

    trace, index = rose
    monkeypatch.setattr(breakpoints_module, "CANCEL_CHECK_EVERY", 1)
    points = BreakpointSet()
    points.add('if tool_input == "no such input"', save=False)
    search = MotionSearch(index, points, lambda i: resolve_in(trace.fields(i), i), 4, Motion.CONTINUE, 1)
    stop = search.advance(cancelled=lambda: True)
    assert (stop.position, stop.reason, stop.moved) == (4, "paused", False)
