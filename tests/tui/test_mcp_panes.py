"""The debugger on an MCP run, with its server deleted: the timeline marks MCP tools, the Detail pane explains
each request, raw answer and probe, and opening the run (real locals included) starts no server."""

from __future__ import annotations

import shutil
import sys

import pytest

from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
from tests.helpers.mcp_processes import SDK_SERVER, processes_with, wait_until
from tests.helpers.pilot_helpers import debugger, settle
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.views.detail_view import detail_text
from tracer.tui.views.event_summary import summary

REPLIES = [
    ' x\nAction: search\nAction Input: {"query": "roses", "shape": "data"}',
    ' x\nAction: search\nAction Input: {"query": "roses", "shape": "other"}',
    " x\nFinal Answer: done",
]


def record(folder):
    script = folder / "flower_server.py"
    shutil.copy(SDK_SERVER, script)
    tools = mcp_tools([sys.executable, str(script)], extract={"search": ["$.pages", "$.data.pages"]})
    path = folder / "run.jsonl"
    with TraceWriter(path) as writer:
        AgentExecutor(create_react_agent(ScriptedModel(REPLIES), tools), tools).invoke({"input": "q"}, [writer])
    assert wait_until(lambda: not processes_with(str(script)))
    script.unlink()
    return path, script


def test_the_detail_pane_explains_each_mcp_event(tmp_path):
    path, _ = record(tmp_path)
    _, events, _ = load_trace(path)
    by_kind = {}
    for event in events:
        by_kind.setdefault(event.kind, []).append(event)
    start = detail_text(events[0]).plain
    assert "MCP  tools from MCP servers (tools/list):" in start and "flower_server.py (stdio) · test-server" in start
    request = detail_text(by_kind["mcp_request"][0]).plain
    assert "MCP  JSON-RPC request #3: tools/call search, sent to python " in request
    result = detail_text(by_kind["mcp_result"][0]).plain
    assert "JSON-RPC answer to #3: isError false, 1 content block(s)" in result
    assert '\n  "data": {\n    "pages": [' in result  # the vendor's JSON, indented to be read
    hit, miss = (detail_text(e).plain for e in by_kind["mcp_extract"])
    assert "  ✗ $.pages\n  ✓ $.data.pages\n" in hit
    assert '  ✗ $.pages\n  ✗ $.data.pages\nthe answer looked like: {"items": [' in miss
    assert summary(by_kind["mcp_extract"][0]) == "$.data.pages matched after 1 miss"
    assert summary(by_kind["mcp_extract"][1]).startswith('no path matched (2 tried): {"items"')


def test_mcp_text_from_the_server_is_shown_literally():
    from executor.events import McpResultEvent, SourceRef

    hostile = McpResultEvent(seq=1, run_id="r", t=0.0, iteration=1, frames=("invoke",),
                             source=SourceRef(file="x.py", line=1, function="f"), server="[bold]evil[/bold]",
                             request_id=7, content=[{"type": "text", "text": "\x1b[31mred\x1b]0;title\x07 [link=x]y"}],
                             is_error=False, size=10)  # fmt: skip
    text = detail_text(hostile)
    assert "\x1b" not in text.plain and "[link=x]y" in text.plain
    assert all(not span.style or "link" not in str(span.style) for span in text.spans)


@pytest.mark.slow
async def test_the_debugger_opens_an_mcp_run_marks_its_tools_and_starts_no_server(tmp_path):
    path, script = record(tmp_path)
    _, events, _ = load_trace(path)
    app = debugger(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        timeline = app.screen.query_one(EventTimeline)
        start = next(e.seq for e in events if e.kind == "tool_start")
        request = next(e.seq for e in events if e.kind == "mcp_request")
        assert "tool_start MCP search ←" in "".join(s.text for s in timeline.render_line(start))
        assert "mcp_request → #3 " in "".join(s.text for s in timeline.render_line(request))
        app.session.goto(request)
        app.screen.refresh_panes()
        await settle(pilot)
    assert not processes_with(str(script))
