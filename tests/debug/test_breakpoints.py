"""Breakpoints: every kind of target, hits, ignore counts, temporary ones, and the sidecar file."""

from __future__ import annotations

import pytest

from executor import ManualClock, ScriptedModel
from tests.helpers.paths import ROSE
from tracer.debug.breakpoint_spec import BreakpointSpecError, parse_spec
from tracer.debug.breakpoints import BreakpointSet
from tracer.debug.conditions import resolve_in
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile
from tracer.trace.writer import TraceWriter
from tutorials.rose_pricing import REPLIES, SCENARIO

# Round 2 misspells the tool; round 3 asks again correctly.
# Source lines move whenever the executor is edited, so take them from the fixture itself.
with TraceFile(ROSE) as _trace:
    FINISH_CHECK_LINE = next(e.source.line for e in _trace if e.kind == "finish_check")
    ACTION_LINE = next(e.source.line for e in _trace if e.kind == "agent_action")
INVALID_TOOL_REPLIES = [
    REPLIES[0],
    " 算一下。\nAction: Calculater\nAction Input: 25 * 1.05",
    REPLIES[1],
    REPLIES[2],
    REPLIES[3],
]


@pytest.fixture
def rose():
    with TraceFile(ROSE) as trace:
        yield trace, TraceIndex.build(trace)


@pytest.fixture
def invalid_tool_trace(tmp_path):
    executor = SCENARIO.executor(
        ScriptedModel(INVALID_TOOL_REPLIES), clock=ManualClock(tick=0.001), run_id_factory=lambda: "invalid"
    )
    with TraceWriter(tmp_path / "invalid.jsonl") as writer:
        executor.invoke(SCENARIO.inputs(), [writer])
    with TraceFile(tmp_path / "invalid.jsonl") as trace:
        yield trace, TraceIndex.build(trace)


def resolver(trace):
    return lambda i: resolve_in(trace.fields(i), i)


def stops(trace_and_index, *specs, start=0, direction=1):
    """Every position a run of continues stops at, from `start`."""
    trace, index = trace_and_index
    breakpoints = BreakpointSet()
    for spec in specs:
        breakpoints.add(spec)
    found, position = [], start
    end = len(index) - 1 if direction > 0 else 0
    while hit := breakpoints.first_stop(index, resolver(trace), position + direction, end, direction):
        found.append(hit[0])
        position = hit[0]
    return found


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("finish_check", [7, 17, 21]),
        ("kind=llm_start", [1, 8, 12, 18]),
        ("tool=Calculator", [11]),  # where the tool starts running
        ("tool=Search", [4]),
        ("iteration=2", [8]),  # where iteration 2 begins
        ("method=plan", [1, 8, 18]),  # the first event of each call
        ("method=_perform_agent_action", [4, 11]),
        ("method=calculate", [12]),
        (f"line=executor/agent_executor.py:{FINISH_CHECK_LINE}", [7, 17, 21]),
        (f"agent_executor.py:{ACTION_LINE}", [3, 10]),
        ('if "25" in tool_input', [10, 11]),
        ('if kind == "agent_action" and tool == "Calculator"', [10]),
        ("kind=finish_check if is_finish", [21]),
        ("method=call_model if iteration >= 2", [8, 12, 18]),
    ],
)
def test_each_target_stops_where_it_should(rose, spec, expected):
    assert stops(rose, spec) == expected


def test_reverse_continue_meets_the_same_breakpoints_backwards(rose):
    assert stops(rose, "finish_check", start=22, direction=-1) == [21, 17, 7]
    assert stops(rose, "method=plan", start=22, direction=-1) == [18, 8, 1]


def test_an_invalid_tool_is_a_kind_and_a_tool_breakpoint(invalid_tool_trace):
    trace, _index = invalid_tool_trace
    [position] = stops(invalid_tool_trace, "invalid_tool")
    assert trace[position].requested == "Calculater"
    assert stops(invalid_tool_trace, "tool=Calculater") == [position]
    assert stops(invalid_tool_trace, 'if "not a valid tool" in observation') == [position, position + 1]


def test_hits_ignore_counts_and_temporary_breakpoints(rose):
    trace, index = rose
    breakpoints = BreakpointSet()
    checks = breakpoints.add("ignore=1 finish_check")
    once = breakpoints.add("temp tool=Calculator")
    hit = breakpoints.first_stop(index, resolver(trace), 0, 22, 1)
    assert hit[0] == 11 and hit[1] == [once]  # 7 was reached but ignored
    assert (checks.hits, checks.ignore) == (1, 0)
    assert breakpoints.get(once.number) is None  # temporary: gone after stopping
    assert breakpoints.first_stop(index, resolver(trace), 12, 22, 1)[0] == 17
    assert checks.hits == 2


def test_disabled_breakpoints_never_stop_and_marks_count_no_hits(rose):
    trace, index = rose
    breakpoints = BreakpointSet()
    bp = breakpoints.add("finish_check")
    assert list(breakpoints.marks(index, resolver(trace), 5, 9)) == [False, False, True, False]
    assert bp.hits == 0
    breakpoints.update(bp.number, enabled=False)
    assert breakpoints.first_stop(index, resolver(trace), 0, 22, 1) is None


@pytest.mark.parametrize(
    "spec, parts",
    [
        ("tool_error", {"target": "kind", "value": "tool_error"}),
        ("tool=Calculator", {"target": "tool", "value": "Calculator"}),
        ("iteration=2", {"target": "iteration", "value": 2}),
        ("line=95", {"target": "line", "value": ("executor/agent_executor.py", 95)}),
        ("models.py:63", {"target": "line", "value": ("models.py", 63)}),
        ("temp ignore=2 method=plan", {"target": "method", "temporary": True, "ignore": 2}),
        ("if iteration >= 2", {"target": "condition", "value": None}),
    ],
)
def test_spec_forms(spec, parts):
    parsed = parse_spec(spec)
    assert {key: parsed[key] for key in parts} == parts


@pytest.mark.parametrize(
    "spec, message",
    [
        ("kind=nope", "unknown event kind 'nope'"),
        ("iteration=two", "must be a whole number"),
        ("line=foo", "needs a line number"),
        ("bogus", "cannot read breakpoint 'bogus'"),
        ("colour=red", "unknown breakpoint target 'colour'"),
        ("tool=Calculator if iteration >=", "bad condition"),
        ("ignore=x finish_check", "ignore count must be a whole number"),
        ("", "empty breakpoint"),
    ],
)
def test_bad_specs_say_how_to_write_one(spec, message):
    with pytest.raises(BreakpointSpecError) as error:
        parse_spec(spec)
    assert message in str(error.value)


def test_the_sidecar_keeps_breakpoints_between_sessions(tmp_path):
    trace_path = tmp_path / "run.jsonl"
    first = BreakpointSet.for_trace(trace_path)
    first.add("tool=Calculator if iteration == 2")
    kept = first.add("finish_check")
    first.update(kept.number, enabled=False, ignore=3)
    first.add("temp method=plan")
    assert (tmp_path / "run.jsonl.breakpoints.json").exists()
    again = BreakpointSet.for_trace(trace_path)
    assert [(bp.spec, bp.enabled, bp.ignore, bp.temporary) for bp in again] == [
        ("tool=Calculator if iteration == 2", True, 0, False),
        ("kind=finish_check", False, 3, False),
        ("method=plan", True, 0, True),
    ]


def test_a_corrupt_sidecar_is_reported_not_fatal(tmp_path):
    (tmp_path / "run.jsonl.breakpoints.json").write_text("{not json")
    breakpoints = BreakpointSet.for_trace(tmp_path / "run.jsonl")
    assert len(breakpoints) == 0
    assert "run.jsonl.breakpoints.json" in breakpoints.warning


def test_toggling_a_line_adds_then_removes(tmp_path):
    breakpoints = BreakpointSet()
    added = breakpoints.toggle_line("executor/agent_executor.py", 95)
    assert added.spec == "line=executor/agent_executor.py:95"
    assert breakpoints.lines_in("executor/agent_executor.py") == {95: True}
    assert breakpoints.toggle_line("executor/agent_executor.py", 95) is None
    assert len(breakpoints) == 0


def test_the_same_breakpoint_twice_is_one_breakpoint():
    breakpoints = BreakpointSet()
    assert breakpoints.add("tool_error") is breakpoints.add("kind=tool_error")
    assert len(breakpoints) == 1
