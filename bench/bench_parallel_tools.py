"""Two 0.5 s tools asked for in one reply, against the fake OpenAI server over real HTTP: how long is acting?

Run: uv run python bench/bench_parallel_tools.py [--runs 5] [--sleep 0.5] [--calls 2]
The acting phase is timed from the first tool_start to the last tool_end of the reply's calls
(the events' `t`, on the real clock), and also as the whole run's wall time. Run sequentially
(--calls N with max_concurrency=1) for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pydantic import SecretStr  # noqa: E402

from executor import AgentExecutor, Tool, create_tool_calling_agent  # noqa: E402
from executor.models.config import ModelConfig  # noqa: E402
from executor.models.providers.openai_chat import OpenAIChatModel  # noqa: E402
from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls  # noqa: E402


def one_run(server: FakeOpenAIServer, calls: int, sleep: float, max_concurrency: int | None) -> tuple[float, float]:
    def slow_lookup(city: str) -> str:
        time.sleep(sleep)
        return f"{city}: 21C"

    tools = [Tool("weather", "Today's weather in a city", slow_lookup)]
    server.push(
        ToolCalls(tuple((f"call_{i}", "weather", f'{{"tool_input": "city {i}"}}') for i in range(calls))), "All done."
    )
    config = ModelConfig(
        model="openai:fake-model", base_url=server.base_url, api_key=SecretStr("bench-key"), timeout=10.0
    )
    model = OpenAIChatModel("fake-model", config)
    executor = AgentExecutor(create_tool_calling_agent(model, tools), tools, max_concurrency=max_concurrency)
    events = []
    started = time.monotonic()
    executor.invoke({"input": "weather?"}, [events.append])
    wall = time.monotonic() - started
    acting = [e.t for e in events if e.kind in ("tool_start", "tool_end")]
    return max(acting) - min(acting), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sleep", type=float, default=0.5)
    parser.add_argument("--calls", type=int, default=2)
    args = parser.parse_args()
    server = FakeOpenAIServer().start()
    try:
        for label, concurrency in (("concurrent", None), ("one at a time", 1)):
            results = [one_run(server, args.calls, args.sleep, concurrency) for _ in range(args.runs)]
            acting = [a for a, _ in results]
            wall = [w for _, w in results]
            print(
                f"{label:>14}: {args.calls} calls x {args.sleep}s  acting median {statistics.median(acting):.3f}s "
                f"(max {max(acting):.3f}s)  whole run median {statistics.median(wall):.3f}s  "
                f"(sequential would be {args.calls * args.sleep:.1f}s)"
            )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
