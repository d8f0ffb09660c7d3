"""mcp_tools over streamable HTTP (the SDK's transport): the same events, and an HTTP 429 retried by the policy."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from executor import AgentExecutor, ManualClock, RetryPolicy, ScriptedModel, create_react_agent, mcp_tools
from tests.helpers.mcp_processes import SDK_SERVER, wait_until


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def http_server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SDK_SERVER), "--http", str(port), "--refuse", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: listening(port), 60), "the HTTP server did not start"
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.slow
def test_calls_over_http_are_narrated_and_a_429_is_retried_with_a_growing_wait(http_server):
    tools = mcp_tools(http_server, retry_policy=RetryPolicy(max_retries=3, initial_delay=1.0, jitter=False,
                                                            honour_retry_after=False))  # fmt: skip
    model = ScriptedModel([' x\nAction: echo\nAction Input: {"text": "over http"}', " x\nFinal Answer: ok"])
    executor = AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock())
    events = list(executor.iter_events({"input": "q"}))
    assert events[0].settings["mcp_servers"][0]["transport"] == "streamable-http"
    retries = [e for e in events if e.kind == "retry"]
    assert [r.delay for r in retries] == [1.0, 2.0]
    assert all("McpRateLimited" in r.error and "HTTP 429 Too Many Requests" in r.error for r in retries)
    assert [e.kind for e in events].count("mcp_request") == 3  # two refused, one answered
    assert next(e for e in events if e.kind == "tool_end").observation == "over http"
