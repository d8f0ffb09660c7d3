"""Line breakpoints in a user's file: in a recording they stop at the tool events of the function holding the line."""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers.user_project import recorded_florist
from tracer.debug.breakpoints import BreakpointSet
from tracer.debug.line_breakpoints import function_extent
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.debug.stepping import Motion, move


@pytest.fixture
def florist(tmp_path, monkeypatch):
    yield recorded_florist(tmp_path, monkeypatch)
    sys.modules.pop("florist", None)


def stops(session, motion=Motion.CONTINUE) -> list[tuple[str, str]]:
    """(kind, tool) of every event `motion` stops at from the first event to the last."""
    found, store = [], session.store
    while True:
        stop = move(store.index, session.breakpoints, store.resolve_at, session.position, motion, 1)
        if stop.reason == "end":
            return found
        session.goto(stop.position)
        found.append((session.event().kind, getattr(session.event(), "tool", None)))


def test_a_line_inside_a_tool_stops_at_that_calls_events_in_a_recording(florist):
    recorded, _source, line_of = florist
    session = build_session(recorded, options=DebuggerOptions(breakpoints=(f"florist.py:{line_of('total = each')}",)))
    assert stops(session) == [("tool_start", "price"), ("tool_end", "price")]
    assert session.breakpoints.items[0].hits == 2


def test_the_async_tools_lines_and_an_absolute_path_reach_it_too(florist):
    recorded, source, line_of = florist
    session = build_session(
        recorded, options=DebuggerOptions(breakpoints=(f"line={source.resolve()}:{line_of('await asyncio')}",))
    )
    assert stops(session) == [("tool_start", "stock"), ("tool_end", "stock")]


def test_the_function_extent_starts_at_its_decorator_and_ends_at_its_last_line(florist):
    _recorded, source, line_of = florist
    first = line_of("@tool")
    assert function_extent(source.resolve().as_posix(), first) == (first, line_of('return f"{quantity}'))


@pytest.mark.parametrize(
    "spec, problem",
    [
        (
            "florist.py:{imports}",
            "no event can reach florist.py:{imports}: it is outside every function the loop calls",
        ),
        ("elsewhere.py:3", "no event can reach elsewhere.py:3: elsewhere.py holds no function the loop calls"),
    ],
)
def test_a_line_no_event_can_reach_says_so_instead_of_hits_0(florist, spec, problem):
    recorded, _source, line_of = florist
    spec, problem = (text.format(imports=line_of("import asyncio")) for text in (spec, problem))
    session = build_session(recorded, options=DebuggerOptions(breakpoints=(spec,)))
    bp = session.breakpoints.items[0]
    assert problem in bp.describe() and "hits" not in bp.describe()
    assert stops(session) == []


def test_line_breakpoints_on_loopscopes_files_still_watch_event_lines_and_the_sidecar_keeps_its_format(florist):
    recorded, _source, line_of = florist
    session = build_session(recorded, options=DebuggerOptions(breakpoints=(f"florist.py:{line_of('total = each')}",)))
    executor_line = session.event(4).source
    session.breakpoints.add(f"line={executor_line.file}:{executor_line.line}")
    assert session.breakpoints.items[1].reach is None  # not a user file: no tool reach, event lines only
    saved = json.loads(session.breakpoints.path.read_text())
    assert saved["version"] == 1 and [entry["spec"] for entry in saved["breakpoints"]] == [
        f"line=florist.py:{line_of('total = each')}",
        f"line={executor_line.file}:{executor_line.line}",
    ]
    reloaded = BreakpointSet.for_trace(recorded)
    assert [bp.spec for bp in reloaded] == [bp.spec for bp in session.breakpoints]
