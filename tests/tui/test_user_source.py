"""A user's agent in the debugger: its tool functions in the Source pane and below the executor in the call stack."""

from __future__ import annotations

import sys

import pytest

from executor import ScriptedModel
from tests.helpers.pilot_helpers import debugger, highlighted, settle
from tests.helpers.user_project import QUESTION, REPLIES, write_project
from tracer.debug.source_map import read_user_source
from tracer.trace.writer import TraceWriter
from tracer.tui.launch import build_session
from tracer.tui.panes.call_stack import CallStackPane

SIZE = (120, 40)


@pytest.fixture
def florist_trace(tmp_path, monkeypatch):
    """A run of a user project outside the repo (florist.py in a temp dir), recorded from Python."""
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("florist", None)  # another test's florist.py may be imported already
    import florist

    path = tmp_path / "run.jsonl"
    with TraceWriter(path, agent="florist:build") as writer:
        florist.build(ScriptedModel(REPLIES)).invoke({"input": QUESTION}, [writer])
    yield path, tmp_path / "florist.py"
    sys.modules.pop("florist", None)


def _tool_event(session, tool, kind="tool_start"):
    return next(i for i in range(len(session.store)) if session.event(i).kind == kind and session.event(i).tool == tool)


def test_the_stack_ends_in_the_users_function_below_the_executor_frames(florist_trace):
    path, source = florist_trace
    session = build_session(path)
    session.goto(_tool_event(session, "price"))
    frames = session.frames()
    assert frames[-1].callee and frames[-1].function == "price"
    assert frames[-1].file == source.resolve().as_posix()
    lines = source.read_text().splitlines()
    assert lines[frames[-1].line - 2 : frames[-1].line] == ["@tool", "def price(item: str, quantity: int) -> str:"]
    assert not frames[-2].callee and frames[-2].file.startswith("executor/")
    session.goto(_tool_event(session, "Discount", "tool_end"))
    assert session.frames()[-1].function == "Discount.invoke"


def test_a_user_file_is_read_only_when_it_is_python(tmp_path):
    secret = tmp_path / "secrets.txt"
    secret.write_text("password")
    assert read_user_source(str(secret)).lines == () and "not a Python file" in str(
        read_user_source(str(secret)).problem
    )


async def test_the_source_pane_shows_the_users_tool_at_its_tool_start(florist_trace):
    path, source = florist_trace
    app = debugger(path)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(_tool_event(app.session, "stock"))
        app.screen.refresh_panes()
        await settle(pilot)
        file, line = highlighted(app)
        assert file == source.resolve().as_posix()
        lines = source.read_text().splitlines()
        assert lines[line - 1].startswith("async def stock(") and lines[line - 2] == "@tool"  # def, not @tool
        title = str(app.screen.query_one("#source-pane").border_title)
        assert "florist.py" in title and "stock()" in title and "your code" in title
        stack = app.screen.query_one(CallStackPane).plain
        assert "your function" in stack and "this event" in stack
