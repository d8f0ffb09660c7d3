"""Issue 29's done-when: a user's agent built with mcp_tools(["python", "my_server.py"]) records through the CLI
against the stub model, verifies and forks offline with the server gone, opens in the debugger with the MCP
details, and leaves no server process behind after any command."""

from __future__ import annotations

import os
import sys

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.mcp_processes import processes_in, wait_until
from tests.helpers.pilot_helpers import debugger, settle
from tracer.trace.reader import load_trace
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.views.detail_view import detail_text

SERVER = """
import json
from mcp.server import MCPServer

server = MCPServer("florist-search")
answered = 0


@server.tool()
def search(query: str) -> str:
    '''Search the web for flower prices; the pages found, as JSON.'''
    global answered
    answered += 1
    pages = [{"title": "Prices for " + query, "snippet": "20 red roses: 28 yuan"}]
    return json.dumps({"data": {"pages": pages}} if answered == 1 else {"pages": pages})


if __name__ == "__main__":
    server.run()
"""
AGENT = """
from executor import AgentExecutor, create_react_agent, mcp_tools


def build(model):
    tools = mcp_tools(["python", "my_server.py"], extract={"search": ["$.pages", "$.data.pages"]})
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, handle_parsing_errors=True)
"""
REPLIES = [
    " I should search.\nAction: search\nAction Input: 20 red roses wholesale",
    " Again, for delivery.\nAction: search\nAction Input: delivery",
    " I know.\nFinal Answer: about 28 yuan",
]


@pytest.fixture
def project(live_env, tmp_path, monkeypatch):
    (tmp_path / "my_server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "my_agent.py").write_text(AGENT, encoding="utf-8")
    # "python" in the agent's command is the interpreter running these tests, as in a user's venv.
    monkeypatch.setenv("PATH", f"{sys.exec_prefix}/bin:{os.environ['PATH']}")
    sys.modules.pop("my_agent", None)
    yield tmp_path
    sys.modules.pop("my_agent", None)


def no_server(folder) -> bool:
    # processes of this test's project only: another worker's test may be running its own my_server.py
    return not [pid for pid in processes_in(folder) if pid != os.getpid()]


@pytest.mark.slow
async def test_a_users_mcp_agent_from_record_to_debugger_with_the_server_gone(project, live_env, capsys):
    live_env.push(*REPLIES)
    code, out, err = loopscope(capsys, "record", "my_agent:build", "--input", "What do 20 red roses cost?",
                               "--model", "openai:fake-model", "-o", "run.jsonl")  # fmt: skip
    assert code == 0, err
    assert wait_until(lambda: no_server(project)), "record left its server running"
    (project / "my_server.py").rename(project / "my_server.py.away")
    served = len(live_env.received)

    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_agent:build")
    assert code == 0 and "1 ok" in out, out + err
    _, events, _ = load_trace(project / "run.jsonl")
    last_call = [e.seq for e in events if e.kind == "llm_start"][-1]
    code, out, err = loopscope(capsys, "fork", "run.jsonl", "--at", str(last_call), "--reply",
                               " Enough.\nFinal Answer: cheap", "-o", "fork.jsonl", "--agent", "my_agent:build")  # fmt: skip
    assert code == 0 and "outcome: finished: cheap" in out, out + err
    assert len(live_env.received) == served and no_server(project)

    app = debugger(project / "run.jsonl", agents=["my_agent:build"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        result = next(e for e in events if e.kind == "mcp_result")
        app.session.goto(result.seq)
        app.screen.refresh_panes()
        await settle(pilot)
        row = "".join(s.text for s in app.screen.query_one(EventTimeline).render_line(result.seq - 2))
        assert "tool_start MCP search" in row
        assert "JSON-RPC answer to #3: isError false" in detail_text(result).plain
    assert no_server(project)
