"""Ctrl-C (a real SIGINT to a real process) while a tool never returns: the process exits and keeps its trace."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tracer.trace.reader import load_trace

pytestmark = pytest.mark.slow  # each test starts a process

# The real CLI recording the parallel-tools tutorial, whose Guangzhou lookup never returns.
HUNG_CLI = """
import sys, threading
from tutorials import weather
from tracer.cli import main
def take(self, city):
    if city == "Guangzhou":
        print("hanging", flush=True)
        threading.Event().wait()
weather.ServiceTimeline.take = take
sys.exit(main(sys.argv[1:]))
"""

# A user's script: a run written by a TraceWriter, one tool of it never returning.
# argv: trace path, driver (invoke|ainvoke), agent (tools: two parallel calls | react: one call), hung tool (sync|async)
HUNG_SCRIPT = """
import asyncio, sys, threading
from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, create_react_agent, create_tool_calling_agent
from tests.helpers.tool_calling_builders import calls
from tracer.trace.writer import TraceWriter
path, driver, agent_kind, hung_kind = sys.argv[1:]

def hang_sync(text):
    print("hanging", flush=True)
    threading.Event().wait()

async def hang_async(text):
    print("hanging", flush=True)
    await asyncio.Event().wait()

hung = Tool(name="hung", description="never answers", func=hang_sync if hung_kind == "sync" else hang_async)
quick = Tool(name="quick", description="answers", func=str.upper)
if agent_kind == "tools":
    model = ScriptedModel([calls(("c1", "quick", {"tool_input": "a"}), ("c2", "hung", {"tool_input": "b"})), "done"])
    agent = create_tool_calling_agent(model, [quick, hung], "You are careful.")
else:
    model = ScriptedModel([" I will wait.\\nAction: hung\\nAction Input: b", " Final Answer: done"])
    agent = create_react_agent(model, [quick, hung])
executor = AgentExecutor(agent=agent, tools=[quick, hung], clock=ManualClock(tick=0.001))
with TraceWriter(path) as writer:
    if driver == "invoke":
        executor.invoke({"input": "q?"}, [writer])
    else:
        asyncio.run(executor.ainvoke({"input": "q?"}, [writer]))
"""


def interrupt_when_hung(args: list[str], trace: Path, starts: int = 1) -> tuple[subprocess.Popen, str]:
    """Start the process, wait until its hung tool's tool_start (and `starts` tool_starts in all) are on
    disk, send SIGINT; (process, stderr). Parallel calls start in whatever order their threads run."""
    process = subprocess.Popen(
        [sys.executable, "-c", *args], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        for line in process.stdout:
            if line.strip() == "hanging":
                break
        _wait_for_hung_tool_start(trace.parent, starts)
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=10)  # generous: the exit takes well under a second
    except BaseException:
        process.kill()
        process.communicate()
        raise
    return process, err


def _wait_for_hung_tool_start(folder: Path, starts: int) -> None:
    # tool_start is written out before the tool runs; the main thread may still be on its way to it.
    for _ in range(500):
        for partial in folder.glob("*.partial"):
            events = [json.loads(line) for line in partial.read_text().splitlines()[1:]]
            begun = [event for event in events if event["kind"] == "tool_start"]
            if any(_is_hung_start(event) for event in begun) and len(begun) >= starts:
                return
        time.sleep(0.01)
    raise AssertionError("the hung tool's tool_start never reached the trace")


def _is_hung_start(event: dict) -> bool:
    return event["tool"] == "hung" or event.get("tool_call_id") == "call_gz"


def test_record_exits_on_ctrl_c_while_a_parallel_tool_call_hangs_and_keeps_the_partial_trace(tmp_path):
    target = tmp_path / "weather.jsonl"
    process, err = interrupt_when_hung([HUNG_CLI, "record", "parallel-tools", "-o", str(target)], target, starts=3)
    kept = tmp_path / "weather.jsonl.interrupted"
    assert process.returncode == 130
    assert err.strip().splitlines() == [f"loopscope: interrupted; no trace was written; the partial run is in {kept}"]
    _, events, warning = load_trace(kept)
    assert "interrupted" in warning
    starts = [e.tool_input for e in events if e.kind == "tool_start"]
    assert sorted(starts) == ["Beijing", "Guangzhou", "Shanghai"]
    assert not [e for e in events if e.kind == "chain_end"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["weather.jsonl.interrupted"]


@pytest.mark.parametrize("driver", ["invoke", "ainvoke"])
@pytest.mark.parametrize("hung_kind", ["sync", "async"])
@pytest.mark.parametrize("agent_kind", ["tools", "react"])
def test_a_script_exits_on_ctrl_c_while_its_tool_hangs(tmp_path, driver, hung_kind, agent_kind):
    target = tmp_path / "run.jsonl"
    starts = 2 if agent_kind == "tools" else 1  # the tool-calling reply asks for both tools at once
    process, err = interrupt_when_hung([HUNG_SCRIPT, str(target), driver, agent_kind, hung_kind], target, starts)
    assert process.returncode == -signal.SIGINT, err  # the interpreter's own exit on an uncaught Ctrl-C
    assert err.rstrip().endswith("KeyboardInterrupt")
    _, events, warning = load_trace(tmp_path / "run.jsonl.interrupted")
    assert "interrupted" in warning
    started = [e.tool for e in events if e.kind == "tool_start"]
    assert "hung" in started and not [e for e in events if e.kind in ("chain_end", "chain_error")]
    if agent_kind == "tools":
        assert sorted(started) == ["hung", "quick"]
    assert not list(tmp_path.glob("*.partial")) and not (tmp_path / "run.jsonl").exists()
