"""What holding parallel tool calls at their events costs: a re-execution run freely vs paced in the recorded order.

Run: uv run python bench/bench_paced_calls.py [--calls 8] [--rounds 5] [--runs 5]
A tool-calling agent whose replies each ask for CALLS calls of a quick tool is recorded; the
recording is then re-executed (its replies answering) three ways: invoke with no gate (what
verify and fork do), the debugger's LiveRun pulling every event (PacedCalls: each call held at
its events, the recorded order kept), and the replay's re-enactment to the last event (the
Variables pane's real locals). Best and median milliseconds per event.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from executor import ModelReply, ScriptedModel, ToolCall  # noqa: E402
from tracer.agents.user_agent import load_user_agent  # noqa: E402
from tracer.debug.live_run import LiveRun  # noqa: E402
from tracer.debug.options import DebuggerOptions  # noqa: E402
from tracer.debug.session import build_session  # noqa: E402
from tracer.replay.builder import replayed_executor  # noqa: E402
from tracer.replay.verify import recorded_inputs  # noqa: E402
from tracer.trace.transitions import Trace  # noqa: E402
from tracer.trace.writer import TraceWriter  # noqa: E402

AGENT = '''
from executor import AgentExecutor, create_tool_calling_agent, tool


@tool
def lookup(key: str) -> str:
    """Look a key up."""
    return key.upper()


def build(model):
    return AgentExecutor(agent=create_tool_calling_agent(model, [lookup]), tools=[lookup])
'''


def recorded(folder: Path, calls: int, rounds: int) -> Path:
    (folder / "paced_bench.py").write_text(AGENT, encoding="utf-8")
    sys.path.insert(0, str(folder))
    module = importlib.import_module("paced_bench")
    replies = [
        ModelReply(
            "", tool_calls=tuple(ToolCall(f"c{r}_{i}", "lookup", json.dumps({"key": f"k{i}"})) for i in range(calls))
        )
        for r in range(rounds)
    ] + [ModelReply("done")]
    path = folder / "run.jsonl"
    with TraceWriter(path, agent="paced_bench:build") as writer:
        module.build(ScriptedModel(replies)).invoke({"input": "go"}, [writer])
    return path


def free(path: Path) -> float:
    trace = Trace.load(path)
    executor = replayed_executor(trace, load_user_agent("paced_bench:build").executor)
    started = time.perf_counter()
    executor.invoke(recorded_inputs(trace), [])
    return time.perf_counter() - started


def paced(path: Path) -> float:
    run = LiveRun("paced_bench:build", None, fixture=path)
    started = time.perf_counter()
    while run.pull() is not None:
        pass
    return time.perf_counter() - started


def reenacted(path: Path) -> float:
    session = build_session(path, options=DebuggerOptions(agents=("paced_bench:build",)))
    started = time.perf_counter()
    assert session.store.frames_at(len(session) - 1) is not None, session.store.reenactment.problem
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = recorded(Path(folder), args.calls, args.rounds)
        events = len(Trace.load(path).events)
        print(f"{events} events: {args.rounds} replies of {args.calls} parallel calls")
        for label, measure in (("free (verify, fork)", free), ("paced (LiveRun)", paced), ("re-enacted", reenacted)):
            times = [measure(path) * 1000 / events for _ in range(args.runs)]
            print(f"{label:<22} best {min(times):.3f} ms/event, median {statistics.median(times):.3f} ms/event")


if __name__ == "__main__":
    main()
