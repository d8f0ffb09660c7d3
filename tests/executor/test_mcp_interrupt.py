"""No MCP server outlives loopscope: Ctrl-C in the middle of a call that never answers leaves no process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.helpers.mcp_processes import processes_with, server_command, wait_until

# The command comes in the environment, so only the server's own command line carries the marker.
AGENT = """
import json, os
from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
tools = mcp_tools(json.loads(os.environ["MCP_TEST_COMMAND"]))
model = ScriptedModel([" x\\nAction: hang\\nAction Input: forever", " x\\nFinal Answer: never"])
executor = AgentExecutor(create_react_agent(model, tools), tools)
for event in executor.iter_events({"input": "q"}):
    print(event.kind, flush=True)
"""


def start_hung_run():
    command, marker = server_command()
    env = {**os.environ, "MCP_TEST_COMMAND": json.dumps(command)}
    run = subprocess.Popen(
        [sys.executable, "-c", AGENT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    seen = []
    try:
        for line in run.stdout:  # until the request is on its way to the server
            seen.append(line.strip())
            if line.strip() == "mcp_request":
                break
        assert seen and seen[-1] == "mcp_request", (seen, run.stderr.read())
        assert len(processes_with(marker)) == 1
    except BaseException:
        run.kill()
        raise
    return run, marker


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_stopping_loopscope_mid_call_stops_its_server(stop):
    run, marker = start_hung_run()
    run.send_signal(stop)
    try:
        run.wait(timeout=60)
    finally:
        run.kill()
    if stop == signal.SIGINT:
        assert "KeyboardInterrupt" in run.stderr.read()
    assert wait_until(lambda: not processes_with(marker), 10), "the server outlived loopscope"


@pytest.mark.slow
def test_even_a_killed_loopscope_leaves_no_server_behind():
    run, marker = start_hung_run()
    run.kill()  # SIGKILL: no handler, no atexit; the server is told by the kernel
    run.wait(timeout=60)
    assert wait_until(lambda: not processes_with(marker), 10), "the server outlived a killed loopscope"
