"""A server that breaks the protocol (tests/helpers/mcp_raw_server.py): garbage, half a message, a 100 MB answer.
Each is one line naming the request, the run goes on, and the next call is answered."""

from __future__ import annotations

import subprocess
import sys

import pytest

from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
from executor.tools.mcp_stdio import CappedLines
from tests.helpers.mcp_processes import RAW_SERVER, processes_with, server_command, wait_until


def run_calls(tools, *calls: tuple[str, str]):
    replies = [f" x\nAction: {tool}\nAction Input: {given}" for tool, given in calls] + [" x\nFinal Answer: done"]
    executor = AgentExecutor(create_react_agent(ScriptedModel(replies), tools), tools)
    return list(executor.iter_events({"input": "q"}))


@pytest.fixture
def raw_server():
    command, marker = server_command(RAW_SERVER)
    yield command
    assert wait_until(lambda: not processes_with(marker)), "the raw server outlived its test"


def test_the_hand_written_server_speaks_the_older_handshake(raw_server):
    with mcp_tools(raw_server) as tools:
        assert tools.listing["protocol_version"] == "2025-11-25" and tools.listing["name"] == "raw-server"
        assert next(t for t in tools if t.name == "ok").invoke("hi") == "ok: hi"


@pytest.mark.parametrize(
    "tool, says",
    [
        ("garbage", "sent a line that is not JSON-RPC: '<html>502 Bad Gateway</html>' (for tools/call #"),
        ("truncated", """sent a line that is not JSON-RPC: '{"jsonrpc": "2.0", "id": """),
    ],
)
def test_a_line_that_is_not_json_rpc_fails_the_waiting_call_at_once(raw_server, tool, says):
    with mcp_tools(raw_server, timeout=60) as tools:  # a long timeout: the failure must not wait for it
        events = run_calls(tools, (tool, "x"), ("ok", "after"))
    error = next(e for e in events if e.kind == "tool_error")
    assert error.error_type == "McpProtocolError" and says in error.message and "\n" not in error.message
    assert [e.kind for e in events].count("mcp_request") == 2
    assert [e.observation for e in events if e.kind == "tool_end"][-1] == "ok: after"
    assert events[-1].kind == "chain_end"


def test_a_100_mb_answer_is_refused_unread_and_the_next_call_is_answered(raw_server):
    with mcp_tools(raw_server, max_result_bytes=1024 * 1024) as tools:
        events = run_calls(tools, ("huge", '{"megabytes": 100}'), ("ok", "after"))
    error = next(e for e in events if e.kind == "tool_error")
    assert error.error_type == "McpResultTooLarge"
    assert "an answer of 104,857,6" in error.message and "over the 1,048,576 cap" in error.message
    assert not [e for e in events if e.kind == "mcp_result" and "x" * 100 in str(e.content)]
    assert [e.observation for e in events if e.kind == "tool_end"][-1] == "ok: after"


def test_capped_lines_never_hold_more_than_the_limit():
    lines = CappedLines(10)
    chunk = b"y" * 4096
    held = []
    for _ in range(256):  # a 1 MB line, fed in pieces
        assert list(lines.feed(chunk)) == []
        held.append(len(lines.buffer))
    assert max(held) == 10
    (line, length), (next_line, next_length) = list(lines.feed(b"\nshort\n"))
    assert line == b"y" * 10 and length == 256 * 4096
    assert (next_line, next_length) == (b"short", 5)


def test_a_server_printing_to_stdout_before_any_request_is_named_if_the_handshake_then_fails():
    command = [sys.executable, "-c", "print('Server starting on stdio...', flush=True); import time; time.sleep(30)"]
    with pytest.raises(Exception, match=r"did not finish the MCP handshake within 2 seconds; it wrote a line that is"):
        list(mcp_tools(command, startup_timeout=2))


def test_the_mcp_extra_missing_is_one_line():
    code = (
        "import sys; sys.modules['mcp'] = None\n"  # as if `pip install loopscope` without [mcp]
        "import importlib.util; importlib.util.find_spec = lambda name, *a: None if name == 'mcp' else 1\n"
        "from executor import mcp_tools\n"
        "try:\n    list(mcp_tools(['python', 'server.py']))\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip() == "mcp_tools needs the MCP SDK to reach a server: pip install 'loopscope[mcp]'"


def test_the_server_gets_a_safe_part_of_the_environment_and_what_was_given(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-reach-the-server")
    script = tmp_path / "env_server.py"
    script.write_text(
        "import os, sys\n"
        "sys.path.insert(0, os.environ['HELPERS'])\n"
        "from mcp.server import MCPServer\n"
        "server = MCPServer('env')\n"
        "@server.tool()\n"
        "def env(name: str) -> str:\n"
        "    '''An environment variable of the server.'''\n"
        "    return os.environ.get(name, '(unset)')\n"
        "server.run()\n",
        encoding="utf-8",
    )
    with mcp_tools([sys.executable, str(script)], env={"HELPERS": str(tmp_path), "REGION": "cn"}) as tools:
        env = next(t for t in tools if t.name == "env")
        assert env.invoke("OPENAI_API_KEY") == "(unset)"
        assert env.invoke("REGION") == "cn" and env.invoke("PATH") != "(unset)"
