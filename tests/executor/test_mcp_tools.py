"""mcp_tools against real MCP servers (the SDK's MCPServer over stdio): listing, calls in both agents and both
drivers, the events around each call, and the connection's life (opened on use, closed at run end, nothing left)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from executor import (
    AgentExecutor,
    ModelReply,
    ScriptedModel,
    ToolCall,
    create_react_agent,
    create_tool_calling_agent,
    mcp_tools,
)
from tests.helpers.mcp_processes import processes_with, server_command, wait_until

pytestmark = pytest.mark.slow  # each test starts an MCP server process: seconds apiece


def react(*replies: str) -> ScriptedModel:
    return ScriptedModel(list(replies))


def kinds_between(events, start_kind="tool_start", end_kind="tool_end"):
    kinds = [e.kind for e in events]
    first = kinds.index(start_kind)
    return kinds[first : kinds.index(end_kind, first) + 1]


@pytest.fixture
def server():
    command, marker = server_command()
    yield command, marker
    # Whatever a test did, its server must not outlive it.
    assert wait_until(lambda: not processes_with(marker)), f"server {marker} left running"


def test_the_servers_tools_are_listed_with_their_schemas(server):
    command, _ = server
    with mcp_tools(command) as tools:
        by_name = {tool.name: tool for tool in tools}
        assert {"search", "echo", "fail", "limited", "hang", "crash"} <= set(by_name)
        echo = by_name["echo"]
        assert echo.description == "Say the text back, `times` times."
        schema = echo.json_schema()  # the server's schema exactly: what a tool-calling model is sent
        assert schema["properties"]["times"]["type"] == "integer" and schema["required"] == ["text"]
        assert echo.openai_tool()["function"]["parameters"] == schema
        listing = tools.listing
        assert listing["method"] == "tools/list" and isinstance(listing["request_id"], int)
        assert listing["name"] == "test-server" and listing["transport"] == "stdio"
        assert [t["name"] for t in listing["tools"]] == [t.name for t in tools]


def test_a_react_run_narrates_each_call_as_a_json_rpc_request_and_its_raw_result(server):
    command, _ = server
    tools = mcp_tools(command)
    model = react(
        ' I echo.\nAction: echo\nAction Input: {"text": "rose", "times": 2}',
        " Done.\nFinal Answer: rose rose",
    )
    executor = AgentExecutor(create_react_agent(model, tools), tools)
    events = list(executor.iter_events({"input": "echo rose twice"}))
    assert kinds_between(events) == ["tool_start", "mcp_request", "mcp_result", "tool_end"]
    start = events[0]
    assert start.settings["mcp_servers"][0]["server"] == tools.server
    request = next(e for e in events if e.kind == "mcp_request")
    result = next(e for e in events if e.kind == "mcp_result")
    assert (
        request.method == "tools/call" and request.tool == "echo" and request.arguments == {"text": "rose", "times": 2}
    )
    assert (
        result.request_id == request.request_id and request.request_id != start.settings["mcp_servers"][0]["request_id"]
    )
    assert result.content == [{"type": "text", "text": "rose rose"}] and result.is_error is False and result.size > 0
    assert next(e for e in events if e.kind == "tool_end").observation == "rose rose"
    assert events[-1].kind == "chain_end"


def test_an_extract_path_matching_several_nodes_observes_them_all_and_the_probe_line_counts_them(server):
    import io

    from rich.console import Console

    from tracer.report.narration.narrator import Narrator

    command, _ = server
    shops = {"data": {"results": [{"name": "Rose House"}, {"name": "Tulip Hall"}, {"name": "Lily Lane"}]}}
    tools = mcp_tools(command, extract={"echo": ["$.data.results[*].name"]})
    model = react(
        f" I look.\nAction: echo\nAction Input: {json.dumps({'text': json.dumps(shops)})}", " Done.\nFinal Answer: 3"
    )
    events = list(AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "shops?"}))
    probe = next(e for e in events if e.kind == "mcp_extract")
    assert (probe.matched, probe.matches) == ("$.data.results[*].name", 3)
    observation = next(e for e in events if e.kind == "tool_end").observation
    assert json.loads(observation) == ["Rose House", "Tulip Hall", "Lily Lane"]
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, color_system=None, width=200))
    for event in events:
        narrator(event)
    assert "probed with JSONPath: $.data.results[*].name matched 3 nodes" in buffer.getvalue()


def test_optional_arguments_left_out_are_not_sent_as_null(server):
    command, _ = server
    with mcp_tools(command) as tools:
        echo = next(t for t in tools if t.name == "echo")
        events = list(AgentExecutor(create_react_agent(react(' x\nAction: echo\nAction Input: {"text": "a"}',
                                                             " x\nFinal Answer: a"), tools), tools)
                      .iter_events({"input": "q"}))  # fmt: skip
        request = next(e for e in events if e.kind == "mcp_request")
        assert request.arguments == {"text": "a"}  # no "times": null for the server to refuse
        assert echo.invoke({"text": "b", "times": 3}) == "b b b"


def test_the_tool_calling_agent_sends_the_servers_schema_and_calls_in_parallel(server):
    command, _ = server
    tools = mcp_tools(command)
    calls = [ToolCall("c1", "echo", '{"text": "one"}'), ToolCall("c2", "echo", '{"text": "two", "times": 2}')]
    model = ScriptedModel([ModelReply("", tool_calls=calls), "one, two two"])
    executor = AgentExecutor(create_tool_calling_agent(model, tools), tools)
    events = list(executor.iter_events({"input": "echo both"}))
    offered = next(e for e in events if e.kind == "llm_start").tools
    assert next(t for t in offered if t["function"]["name"] == "echo")["function"]["parameters"]["required"] == ["text"]
    results = {e.tool_call_id: e for e in events if e.kind == "mcp_result"}
    assert results["c1"].content[0]["text"] == "one" and results["c2"].content[0]["text"] == "two two"
    requests = {e.tool_call_id: e.request_id for e in events if e.kind == "mcp_request"}
    assert {results[c].request_id for c in results} == set(requests.values()) and len(set(requests.values())) == 2
    assert events[-1].kind == "chain_end" and events[-1].outputs["output"] == "one, two two"


def test_ainvoke_awaits_the_calls_without_blocking_its_loop(server):
    command, _ = server
    tools = mcp_tools(command)
    model = react(' x\nAction: echo\nAction Input: {"text": "async"}', " x\nFinal Answer: async")
    executor = AgentExecutor(create_react_agent(model, tools), tools)

    async def run_with_a_ticker():
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        task = asyncio.create_task(ticker())
        collected = []
        result = await executor.ainvoke({"input": "q"}, [collected.append])
        task.cancel()
        return result, collected, ticks

    result, events, ticks = asyncio.run(run_with_a_ticker())
    assert result["output"] == "async" and ticks > 0
    assert [e.kind for e in events].count("mcp_result") == 1


def test_a_failed_call_is_an_observation_and_a_429_is_retried_with_a_growing_wait(server):
    from executor import ManualClock, RetryPolicy

    command, _ = server
    tools = mcp_tools(command, retry_policy=RetryPolicy(max_retries=3, initial_delay=1.0, jitter=False))
    model = react(
        " x\nAction: fail\nAction Input: the vase is empty",
        " x\nAction: limited\nAction Input: roses",
        " x\nFinal Answer: done",
    )
    executor = AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock())
    events = list(executor.iter_events({"input": "q"}))
    error = next(e for e in events if e.kind == "tool_error")
    assert error.error_type == "McpToolError" and error.handled and "the vase is empty" in error.message
    failed = next(e for e in events if e.kind == "mcp_result" and e.is_error)
    assert "the vase is empty" in failed.content[0]["text"]
    retries = [e for e in events if e.kind == "retry"]
    assert [r.delay for r in retries] == [1.0, 2.0] and all("McpRateLimited" in r.error for r in retries)
    assert [e.observation for e in events if e.kind == "tool_end"][-1] == "results for roses"


def test_a_hung_call_times_out_in_one_line_and_the_next_call_still_works(server):
    command, _ = server
    with mcp_tools(command, timeout=1.0) as tools:
        by_name = {t.name: t for t in tools}
        model = react(" x\nAction: hang\nAction Input: roses", ' x\nAction: echo\nAction Input: {"text": "alive"}',
                      " x\nFinal Answer: ok")  # fmt: skip
        events = list(AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "q"}))
        error = next(e for e in events if e.kind == "tool_error")
        assert error.error_type == "ToolTimeout" and "1 seconds" in error.message and "\n" not in error.message
        assert [e.kind for e in events].count("mcp_request") == 2  # the hung request is on the record
        assert [e.observation for e in events if e.kind == "tool_end"][-1] == "alive"
        assert by_name["echo"].invoke({"text": "still"}) == "still"


def test_a_server_that_crashes_mid_call_is_named_with_its_exit_code_and_the_next_call_starts_a_new_one(server):
    command, marker = server
    with mcp_tools(command) as tools:
        model = react(" x\nAction: crash\nAction Input: now", ' x\nAction: echo\nAction Input: {"text": "back"}',
                      " x\nFinal Answer: ok")  # fmt: skip
        events = list(AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "q"}))
        error = next(e for e in events if e.kind == "tool_error")
        assert error.error_type == "McpConnectionLost" and error.handled
        assert "exit code 3" in error.message and "the test server fell over" in error.message
        assert [e.observation for e in events if e.kind == "tool_end"][-1] == "back"
        assert len(processes_with(marker)) == 1  # the crashed one is gone, its replacement runs


def test_a_server_command_that_does_not_exist_is_one_line():
    with pytest.raises(Exception) as failure:
        list(mcp_tools(["no-such-mcp-server-anywhere", "--stdio"]))
    assert type(failure.value).__name__ == "McpServerError"
    assert str(failure.value) == (
        "MCP server 'no-such-mcp-server-anywhere --stdio' could not start: there is no program "
        "'no-such-mcp-server-anywhere' (is it installed, on PATH?)"
    )


def test_a_server_that_exits_before_the_handshake_says_so_with_its_last_words():
    command = [sys.executable, "-c", "import sys; sys.stderr.write('missing API key\\n'); sys.exit(2)"]
    with pytest.raises(Exception, match=r"exited before the MCP handshake \(exit code 2; stderr: 'missing API key'\)"):
        list(mcp_tools(command, timeout=10))


@pytest.mark.parametrize(
    "bad, problem",
    [
        ("python server.py", "give the server as a command list"),
        ([], "non-empty list of strings"),
        (["python", 3], "non-empty list of strings"),
    ],
)
def test_a_server_given_wrongly_is_refused_before_anything_starts(bad, problem):
    with pytest.raises(ValueError, match=problem):
        mcp_tools(bad)


def test_a_typo_in_an_extract_path_is_refused_before_anything_starts():
    with pytest.raises(ValueError, match=r"extract path '\$\.\[pages' is not JSONPath"):
        mcp_tools(["python", "server.py"], extract=["$.pages", "$.[pages"])


def test_the_connection_closes_when_the_run_ends(server):
    command, marker = server
    tools = mcp_tools(command)
    model = react(' x\nAction: echo\nAction Input: {"text": "once"}', " x\nFinal Answer: once")
    assert AgentExecutor(create_react_agent(model, tools), tools).invoke({"input": "q"})["output"] == "once"
    assert wait_until(lambda: not processes_with(marker)), "the server outlived the run"
    model = react(' x\nAction: echo\nAction Input: {"text": "twice"}', " x\nFinal Answer: twice")
    assert AgentExecutor(create_react_agent(model, tools), tools).invoke({"input": "q"})["output"] == "twice"


def test_nothing_loads_the_sdk_until_a_toolset_is_used():
    code = (
        "import sys\n"
        "from executor import mcp_tools\n"
        "tools = mcp_tools(['python', 'server.py'], extract=['$.pages'])\n"
        "print(sorted(m for m in ('mcp', 'anyio', 'httpx2') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out.replace("'", '"')) == []
