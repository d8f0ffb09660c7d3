"""Recorded MCP results answer a replay offline: the server script is deleted before verify, fork and the cassette,
and the re-run still narrates every request, raw result, failure and probe exactly as recorded."""

from __future__ import annotations

import shutil
import sys

import pytest

from executor import AgentExecutor, ManualClock, RetryPolicy, ScriptedModel, create_react_agent, mcp_tools
from tests.helpers.mcp_processes import SDK_SERVER, processes_with, wait_until
from tracer.agents.user_agent import user_build
from tracer.replay.builder import replayed_executor
from tracer.replay.cassette import Cassette
from tracer.replay.fork import fork_trace
from tracer.replay.verify import compare_runs, recorded_inputs, run_collecting
from tracer.trace.transitions import Trace
from tracer.trace.writer import TraceWriter

pytestmark = pytest.mark.slow  # each test starts an MCP server process: seconds apiece

PATHS = ["$.pages", "$.data.pages"]
REPLIES = [
    ' x\nAction: search\nAction Input: {"query": "roses", "shape": "data"}',
    ' x\nAction: search\nAction Input: {"query": "delivery", "shape": "top"}',
    " x\nAction: fail\nAction Input: no vases left",
    " x\nAction: limited\nAction Input: tulips",
    " x\nAction: hang\nAction Input: forever",
    " x\nAction: crash\nAction Input: now",
    ' x\nAction: echo\nAction Input: {"text": "back again"}',
    " x\nFinal Answer: done",
]


@pytest.fixture
def server(tmp_path):
    """A copy of the test server the recording starts, and deletes afterwards; its processes must be gone."""
    script = tmp_path / "my_server.py"
    shutil.copy(SDK_SERVER, script)
    yield script
    assert wait_until(lambda: not processes_with(str(script))), "a server outlived the test"


def builder(script, paths=PATHS):
    def build(model):
        tools = mcp_tools([sys.executable, str(script)], extract={"search": paths}, timeout=2.0,
                          retry_policy=RetryPolicy(max_retries=2, initial_delay=1.0, jitter=False, retry_on=(429,)))  # fmt: skip
        return AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock(tick=0.001))

    return build


def record(path, build):
    with TraceWriter(path, agent="my_agent:build", clock_tick=0.001) as writer:
        build(ScriptedModel(REPLIES)).invoke({"input": "flowers?"}, [writer])
    return Trace.load(path)


def rerun(trace, build):
    return run_collecting(replayed_executor(trace, user_build(build)), recorded_inputs(trace))


def test_a_recording_with_every_kind_of_answer_replays_with_the_server_deleted(server, tmp_path):
    build = builder(server)
    trace = record(tmp_path / "run.jsonl", build)
    kinds = [e.kind for e in trace.events]
    errors = [e.error_type for e in trace.events if e.kind == "tool_error"]
    assert errors == ["McpToolError", "ToolTimeout", "McpConnectionLost"] and kinds.count("retry") == 2
    assert trace.events[-1].kind == "chain_end"
    server.unlink()  # from here on there is no server to start
    assert wait_until(lambda: not processes_with(str(server)))  # the recording's server has stopped
    again = rerun(trace, build)
    assert again.error is None and again.divergence is None
    assert compare_runs(trace.events, again.events) is None
    assert [e.kind for e in again.events] == kinds
    assert not processes_with(str(server))


def test_a_changed_extract_path_diverges_where_it_takes_effect(server, tmp_path):
    trace = record(tmp_path / "run.jsonl", builder(server))
    server.unlink()
    again = rerun(trace, builder(server, paths=["$.data.pages", "$.pages"]))
    difference = compare_runs(trace.events, again.events)
    first_extract = next(e.seq for e in trace.events if e.kind == "mcp_extract")
    assert difference is not None and difference.seq == first_extract
    assert "paths" in difference.explain()


def test_changed_arguments_diverge_at_the_call(server, tmp_path):
    trace = record(tmp_path / "run.jsonl", builder(server))
    server.unlink()
    replies = [REPLIES[0].replace("roses", "lilies"), *REPLIES[1:]]
    rerun_ = run_collecting(
        replayed_executor(trace, user_build(builder(server)), model=ScriptedModel(replies)), recorded_inputs(trace)
    )
    assert rerun_.divergence is not None or compare_runs(trace.events, rerun_.events) is not None


def test_the_pytest_plugins_cassette_replays_without_the_server(server, tmp_path):
    path = tmp_path / "cassette.jsonl"
    build = builder(server)
    Cassette(path, mode="once").run(build, {"input": "flowers?"}, live_model=ScriptedModel(REPLIES))
    server.unlink()
    replayed = Cassette(path, mode="none").run(build, {"input": "flowers?"})
    assert replayed.outcome() == "finished: done"
    assert [e.kind for e in replayed.events].count("mcp_result") == 7  # search x2, fail, limited x3 (two 429s), echo


def test_a_fork_at_the_final_reply_needs_no_server(server, tmp_path):
    build = builder(server)
    trace = record(tmp_path / "run.jsonl", build)
    server.unlink()
    last_call = [e.seq for e in trace.events if e.kind == "llm_start"][-1]
    result = fork_trace(trace, last_call, reply=" x\nFinal Answer: forked", output=tmp_path / "fork.jsonl",
                        build_executor=build)  # fmt: skip
    assert result.error is None
    assert [e.kind for e in result.trace.events].count("mcp_request") == [e.kind for e in trace.events].count(
        "mcp_request"
    )
    assert result.trace.events[-1].outputs["output"] == "forked"


def test_a_forked_observation_of_an_mcp_call_stands_for_the_servers_answer_and_is_probed_too(server, tmp_path):
    build = builder(server)
    trace = record(tmp_path / "run.jsonl", build)
    server.unlink()
    first_search = next(e.seq for e in trace.events if e.kind == "tool_start" and e.tool == "search")
    result = fork_trace(trace, first_search, observation='{"data": {"pages": ["a forked page"]}}',
                        output=tmp_path / "fork.jsonl", build_executor=build)  # fmt: skip
    extract = next(e for e in result.trace.events if e.kind == "mcp_extract")
    assert extract.matched == "$.data.pages"
    assert next(e for e in result.trace.events if e.kind == "tool_end").observation == '["a forked page"]'
