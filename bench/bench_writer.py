"""The JSONL writer alone: the events of a 1,000-iteration run, recorded first, then only written.

Run: uv run python bench/bench_writer.py [--iterations 1000] [--repeat 7]
Separates the writer's own cost (encoding, secret screen, a write() before each wait) from the executor's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_executor import drain, loopscope_executor, replies

from tracer.trace.writer import TraceWriter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    events: list = []
    drain(loopscope_executor(replies(args.iterations)), [events.append])
    best = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            writer = TraceWriter(Path(tmp) / "bench.jsonl")
            started = time.perf_counter()
            for event in events:
                writer(event)
            best = min(best, time.perf_counter() - started)
            writer.close()
    print(
        f"writer alone, best of {args.repeat}: {best * 1e6 / args.iterations:.1f} µs per iteration, "
        f"{best * 1e6 / len(events):.2f} µs per event ({len(events):,} events)"
    )


if __name__ == "__main__":
    main()
