"""Each kind of breakpoint, set the way a user sets it (--break, B, b), stops continue where it should."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROSE
from tests.helpers.pilot_helpers import debugger, highlighted, said, settle
from tracer.debug.breakpoints import BreakpointSet
from tracer.trace.reader import TraceFile

SIZE = (120, 40)
with TraceFile(ROSE) as _trace:  # source lines move with executor edits: read them from the fixture
    ACTION_LINE = next(e.source.line for e in _trace if e.kind == "agent_action")


async def continues(app, pilot, key: str = "c", times: int = 3) -> list[int]:
    seen = []
    for _ in range(times):
        await pilot.press(key)
        await settle(pilot)
        seen.append(app.session.position)
    return seen


@pytest.mark.parametrize(
    "spec, stops",
    [
        ("tool_error", [22, 22, 22]),  # none in this run: continue runs to the end
        ("finish_check", [7, 17, 21]),
        ("tool=Calculator", [11, 22, 22]),
        ("iteration=2", [8, 22, 22]),
        ("method=plan", [1, 8, 18]),
        (f"line=executor/agent_executor.py:{ACTION_LINE}", [3, 10, 22]),
        ('if kind == "agent_action" and tool == "Calculator"', [10, 22, 22]),
        ('if "25" in tool_input', [10, 11, 22]),
        ("temp finish_check", [7, 22, 22]),  # temporary: gone after the first stop
        ("ignore=1 finish_check", [17, 21, 22]),  # the first hit is passed over
    ],
)
async def test_continue_stops_at_each_kind_of_breakpoint(rose, spec, stops):
    app = debugger(rose, breakpoints=[spec])
    async with app.run_test(size=SIZE) as pilot:
        assert await continues(app, pilot) == stops


async def test_reverse_continue_meets_them_backwards(rose):
    app = debugger(rose, breakpoints=["method=plan"])
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(22)
        assert await continues(app, pilot, "C", 4) == [18, 8, 1, 0]


async def test_an_invalid_tool_breakpoint_stops_at_the_observation(invalid_tool):
    app = debugger(invalid_tool, breakpoints=["invalid_tool"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot)
        event = app.session.event()
        assert event.kind == "invalid_tool" and event.requested == "Calculater"
        assert highlighted(app) == ("executor/agent_executor.py", event.source.line)
        assert "stopped at breakpoint #1 kind=invalid_tool (hit 1)" in said(app)


async def test_breakpoints_persist_next_to_the_trace(rose):
    app = debugger(rose, breakpoints=["tool=Calculator"])
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(7)
        await pilot.press("b")
        await settle(pilot)
    again = BreakpointSet.for_trace(rose)
    assert [bp.spec for bp in again] == [
        "tool=Calculator",
        f"line=executor/agent_executor.py:{app.session.event(7).source.line}",
    ]
