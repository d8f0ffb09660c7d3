"""What an MCP server starts dies with the run: children in its group, one that called setsid, a daemon; and a
second Ctrl-C during the clean-up hurries it instead of printing a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
from tests.helpers.mcp_processes import processes_with, server_command, wait_until

pytestmark = pytest.mark.slow  # each test starts an MCP server process and its children

# Calls the server's spawn tool, then finishes: a run that ends cleanly (exit 0), as `record` did.
SPAWNING_AGENT = """
import json, os, sys
from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
tools = mcp_tools(json.loads(os.environ["MCP_TEST_COMMAND"]))
spawn = json.dumps({"marker": os.environ["CHILD_MARKER"]})
model = ScriptedModel([f" x\\nAction: spawn\\nAction Input: {spawn}", " x\\nFinal Answer: done"])
print(AgentExecutor(create_react_agent(model, tools), tools).invoke({"input": "q"})["output"], flush=True)
"""


def spawning_run(tools, child_marker):
    spawn = json.dumps({"marker": child_marker})
    model = ScriptedModel([f" x\nAction: spawn\nAction Input: {spawn}", " x\nFinal Answer: done"])
    return AgentExecutor(create_react_agent(model, tools), tools).invoke({"input": "q"})


@pytest.fixture
def markers():
    """(the server's command, its marker, the marker its children carry); none of them may outlive the test."""
    command, marker = server_command()
    child = f"child-{uuid.uuid4().hex[:10]}"
    yield command, marker, child
    for pid in processes_with(child):  # a failed test must not leave sleepers behind
        os.kill(pid, signal.SIGKILL)


def test_a_servers_children_even_in_a_session_of_their_own_end_with_the_run(markers):
    command, marker, child = markers
    with mcp_tools(command) as tools:
        assert spawning_run(tools, child)["output"] == "done"
        assert wait_until(lambda: len(processes_with(child)) == 3), processes_with(child)  # all three started
    assert wait_until(lambda: not processes_with(child), 10), "the server's children outlived the run"
    assert wait_until(lambda: not processes_with(marker), 10)


def test_a_run_that_ends_cleanly_without_closing_leaves_nothing_at_exit(markers):
    """The attack: `record` exited 0 and `sleep 311` (and a setsid child) kept running."""
    command, marker, child = markers
    env = {**os.environ, "MCP_TEST_COMMAND": json.dumps(command), "CHILD_MARKER": child}
    run = subprocess.run([sys.executable, "-c", SPAWNING_AGENT], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "done", run.stderr
    assert wait_until(lambda: not processes_with(child), 10), "the server's children outlived loopscope"
    assert wait_until(lambda: not processes_with(marker), 10)


# A call that never answers, on a server that ignores SIGTERM: the clean-up at exit takes its full time.
HUNG_AGENT = """
import json, os
from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
tools = mcp_tools(json.loads(os.environ["MCP_TEST_COMMAND"]))
model = ScriptedModel([" x\\nAction: hang\\nAction Input: forever", " x\\nFinal Answer: never"])
for event in AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "q"}):
    print(event.kind, flush=True)
"""


def test_a_second_ctrl_c_during_the_clean_up_hurries_it_without_a_traceback():
    """The attack: Ctrl-C twice printed "Exception ignored in atexit callback" and a second traceback."""
    command, marker = server_command()
    command.append("--ignore-term")
    env = {**os.environ, "MCP_TEST_COMMAND": json.dumps(command)}
    run = subprocess.Popen(
        [sys.executable, "-c", HUNG_AGENT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        for line in run.stdout:  # until the request is on its way to the server
            if line.strip() == "mcp_request":
                break
        run.send_signal(signal.SIGINT)
        said = []
        for line in run.stderr:  # the first Ctrl-C's traceback is printed before the exit hooks run
            said.append(line)
            if line.startswith("KeyboardInterrupt"):
                break
        # Into the exit hook's clean-up: it waits 0.5 s, then 1 s for a server ignoring SIGTERM. (A second
        # Ctrl-C in the first milliseconds, while Python itself shuts its threads down, is Python's to report.)
        time.sleep(0.3)
        run.send_signal(signal.SIGINT)
        said.append(run.stderr.read())
        assert run.wait(timeout=60) != 0
    finally:
        run.kill()
    text = "".join(said)
    assert "Exception ignored" not in text and text.count("Traceback") == 1, text
    assert wait_until(lambda: not processes_with(marker), 10), "the server outlived loopscope"
