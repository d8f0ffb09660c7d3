"""Per-iteration cost of each kind of tool, and of the async driver, on one scripted loop.

Run: uv run python bench/bench_tools_async.py [--iterations 500] [--repeat 5]
Each variant runs the same N-round ReAct loop (N tool calls); numbers are µs per round,
best of --repeat. Compare against "plain Tool, invoke": the ratios are what matter.
Also times how long a live model takes to give up on a closed port under the default policy.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, create_react_agent, tool


def replies(n: int, tool_input: str) -> list[str]:
    acts = [f" Step {i}.\nAction: T\nAction Input: {tool_input}" for i in range(n - 1)]
    return acts + [" I now know the final answer.\nFinal Answer: done"]


@tool("T")
def structured(a: int, b: int) -> str:
    """Adds."""
    return str(a + b)


@tool("T")
async def async_tool(text: str) -> str:
    """Echoes, asynchronously."""
    return text


VARIANTS = {
    "plain Tool, invoke": (Tool("T", "Echoes.", lambda text: text), "x", "invoke"),
    "@tool two ints (JSON + pydantic), invoke": (structured, '{"a": 1, "b": 2}', "invoke"),
    "plain Tool, ainvoke": (Tool("T", "Echoes.", lambda text: text), "x", "ainvoke"),
    "async @tool, ainvoke (awaited on the caller's loop)": (async_tool, "x", "ainvoke"),
    "async @tool, invoke (awaited on the background loop)": (async_tool, "x", "invoke"),
}


def run_once(the_tool: Tool, tool_input: str, driver: str, n: int) -> float:
    model = ScriptedModel(replies(n, tool_input))
    executor = AgentExecutor(
        agent=create_react_agent(model, [the_tool]), tools=[the_tool], max_iterations=n + 1, clock=ManualClock()
    )
    started = time.perf_counter()
    if driver == "invoke":
        executor.invoke({"input": "q"})
    else:
        asyncio.run(executor.ainvoke({"input": "q"}))
    return (time.perf_counter() - started) / n * 1e6


def closed_port_seconds() -> float:
    import os

    from executor.models.providers import ProviderUnreachable, create_model

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    os.environ.update(OPENAI_API_KEY="bench", OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1")
    the_tool = Tool("T", "Echoes.", lambda text: text)
    model = create_model("openai:any")
    executor = AgentExecutor(agent=create_react_agent(model, [the_tool]), tools=[the_tool])
    started = time.perf_counter()
    try:
        executor.invoke({"input": "q"})
    except ProviderUnreachable:
        pass  # the unreachable provider is the case being timed: its error is expected
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = None
    for name, (the_tool, tool_input, driver) in VARIANTS.items():
        best = min(run_once(the_tool, tool_input, driver, args.iterations) for _ in range(args.repeat))
        base = base or best
        print(f"{name:<55} {best:8.1f} µs/round   x{best / base:.2f}")
    print(f"{'closed port, default RetryPolicy: seconds to fail':<55} {closed_port_seconds():8.3f} s")


if __name__ == "__main__":
    main()
