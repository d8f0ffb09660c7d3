"""`loopscope debug --live MODULE:ATTR` on a LangGraph, an Agents SDK and a pydantic-ai agent, in the real Textual
app: step to the tool_start, `s` into the user's tool, its line in the Source pane and its locals in Variables."""

from __future__ import annotations

import sys

import pytest

from tests.debug.live_framework_agents import cli_live_run, line_of, module_name
from tests.helpers.pilot_helpers import debugger, highlighted, pane_text, said, settle, status
from tracer.tui.panes.source_view import SourceView

SIZE = (120, 40)
CASES = [
    ("langgraph", "get_weather"),
    ("openai_agents", "get_weather"),
    ("openai_agents", "get_time"),
    ("pydantic_ai", "get_weather"),
    ("pydantic_ai", "get_time"),
]


def idle(app) -> bool:
    return not app.screen.busy


def marked_function(app) -> str:
    line = next(line for line in app.screen.stack.plain.splitlines() if line.startswith("▶"))
    return line[2:].split()[0]


@pytest.mark.slow  # each drives a framework's real agent through the Textual app: seconds
@pytest.mark.parametrize(("framework", "tool"), CASES)
async def test_s_at_the_tool_start_shows_the_users_tool_line_by_line_with_its_locals(
    framework, tool, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, source = cli_live_run(tmp_path, framework, tool)
    local, value = ("forecast", "'sunny'") if tool == "get_weather" else ("zone", "'UTC+8'")
    body = line_of(source, f"    {local} = ")
    app = debugger(None, live=run)
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(8):  # step until the tool_start (LangGraph has an agent_action before it)
                if app.session.event().kind == "tool_start":
                    break
                await pilot.press("s")
                await settle(pilot, lambda: idle(app))
            assert app.session.event().kind == "tool_start" and app.session.event().tool == tool
            assert f"s: step into {tool}() line by line" in status(app)
            assert marked_function(app) == tool  # the user's function, below the framework's frames
            variables = pane_text(app, "variables-text")
            assert f"▶ {tool}()" in variables and "not called yet" in variables and '"Beijing"' in variables

            await pilot.press("s")
            await settle(pilot, lambda: idle(app) and run.line_stop is not None)
            assert highlighted(app) == (source.resolve().as_posix(), body)
            assert "paused at this line" in str(app.screen.query_one("#source-pane").border_title)
            variables = pane_text(app, "variables-text")
            assert f"▶ {tool}()" in variables and "city" in variables and "'Beijing'" in variables
            assert marked_function(app) == tool

            await pilot.press("s")
            await settle(
                pilot, lambda: idle(app) and run.line_stop is not None and run.line_stop.frame.line == body + 1
            )
            assert highlighted(app)[1] == body + 1
            variables = pane_text(app, "variables-text")
            assert local in variables and value in variables

            await pilot.press("r")
            await settle(pilot, lambda: idle(app) and run.line_stop is None)
            assert app.session.event().kind == "tool_end" and "Beijing" in app.session.event().observation
            assert f"{tool}() is done" in said(app)
    finally:
        app.session.store.close()
        sys.modules.pop(module_name(framework), None)


@pytest.mark.slow  # drives pydantic-ai's real agent through the Textual app
async def test_s_at_one_of_two_parallel_pydantic_ai_calls_keeps_to_that_call_through_the_others_start(
    tmp_path, monkeypatch
):
    """pydantic-ai starts both calls before either runs: the second call's tool_start once disarmed the call
    `s` was pressed at (its lines never came) and the status said the stepped function 'is done'."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, source = cli_live_run(tmp_path, "pydantic_ai", cities=("Beijing", "Shanghai"))
    body = line_of(source, "    forecast = ")
    app = debugger(None, live=run)
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(8):
                if app.session.event().kind == "tool_start":
                    break
                await pilot.press("s")
                await settle(pilot, lambda: idle(app))
            assert "Beijing" in app.session.event().tool_input
            lines: list[tuple[int, str]] = []
            for _ in range(4):  # s into the call, then through the other call's start to its two lines
                await pilot.press("s")
                await settle(pilot, lambda: idle(app))
                if run.line_stop is not None:
                    lines.append((run.line_stop.frame.line, dict(run.line_stop.frame.locals)["city"]))
                elif app.session.event().kind == "tool_start":
                    assert "has not finished: its lines come in turn" in said(app)
                    assert "is done" not in said(app) and "not stepping into it" not in said(app)
            assert lines == [(body, "'Beijing'"), (body + 1, "'Beijing'")]
    finally:
        app.session.store.close()
        sys.modules.pop(module_name("pydantic_ai"), None)


@pytest.mark.slow  # drives the Agents SDK's real agent through the Textual app
async def test_a_model_event_opens_the_frameworks_long_module_at_the_line_that_asked_the_model(tmp_path, monkeypatch):
    """At llm_start the Source pane shows the SDK's run loop (3,000 lines) at the call: it opened at line 1, as the
    pane had no scrollbar yet after the event before (no source) and Textual ignored the scroll."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, _source = cli_live_run(tmp_path, "openai_agents")
    app = debugger(None, live=run)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            await settle(pilot, lambda: idle(app) and app.session.event().kind == "llm_start")
            await settle(pilot)
            view = app.screen.query_one(SourceView)
            assert view.source is not None and len(view.source.lines) > 500, "not a long module: test needs another"
            line, top = view.current_line, int(view.scroll_y)
            assert line > view.scrollable_content_region.height
            assert top < line <= top + view.scrollable_content_region.height, (line, top)
    finally:
        app.session.store.close()
        sys.modules.pop(module_name("openai_agents"), None)
