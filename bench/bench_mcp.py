"""MCP tools over stdio: the first listing (SDK import, server start, handshake), a call's cost, a 100 MB answer refused.

Run: uv run python bench/bench_mcp.py [--calls 200]
Uses the test servers in tests/helpers (the SDK's MCPServer, and a hand-written one for the 100 MB answer).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import mcp_tools
from executor.run_context import RunContext

HELPERS = Path(__file__).resolve().parent.parent / "tests" / "helpers"


def drain(tool, given):
    steps = tool.run(given, RunContext())
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    started = time.perf_counter()
    with mcp_tools([sys.executable, str(HELPERS / "mcp_test_server.py")]) as tools:
        listed = time.perf_counter() - started
        echo = next(t for t in tools if t.name == "echo")
        times = []
        for number in range(args.calls):
            began = time.perf_counter()
            drain(echo, {"text": f"call {number}"})
            times.append(time.perf_counter() - began)
    print(f"first listing (import SDK, start server, handshake, tools/list): {listed:.2f} s")
    print(
        f"echo call over stdio, {args.calls} calls: median {statistics.median(times) * 1e3:.2f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e3:.2f} ms"
    )
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with mcp_tools([sys.executable, str(HELPERS / "mcp_raw_server.py")], max_result_bytes=1 << 20) as raw:
        huge = next(t for t in raw if t.name == "huge")
        began = time.perf_counter()
        said = drain(huge, '{"megabytes": 100}')  # handled: the refusal is the observation
        print(f"100 MB answer refused after {time.perf_counter() - began:.2f} s: {said[:90]}...")
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS before / after the 100 MB answer: {before:.0f} / {after:.0f} MB")


if __name__ == "__main__":
    main()
