"""What reading a big trace by offset costs: open (finding every line), every line in order (a search, the
waterfall), random jumps (the debugger), and this process's peak RSS.

Run: uv run python bench/bench_reader.py [--events 500000] [--out bench/out]
The reader used to memory-map the file; a file truncated while mapped killed the process with SIGBUS
(issue 34), so it now reads through a 256 kB window with pread (tracer/trace/file_bytes.py). The numbers
before and after are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_debugger import generate

from tracer.report.waterfall.scan import waterfall_of_trace
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile

JUMPS = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500_000)
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"reader-{args.events}.jsonl"
    if not path.exists():
        generate(path, args.events)
    numbers: dict[str, float] = {"file MB": path.stat().st_size / 1e6}
    started = time.perf_counter()
    trace = TraceFile(path)
    numbers["open (find every line) s"] = time.perf_counter() - started
    started = time.perf_counter()
    total = sum(len(trace.raw_line(i)) for i in range(len(trace)))
    numbers["every line in order s"] = time.perf_counter() - started
    assert total > 0
    picks = random.Random(7).sample(range(len(trace)), JUMPS)
    started = time.perf_counter()
    for position in picks:
        trace.raw_line(position)
    numbers[f"{JUMPS:,} random lines ms each"] = (time.perf_counter() - started) / JUMPS * 1000
    index = TraceIndex.build(trace)
    started = time.perf_counter()
    waterfall_of_trace(trace, index)
    numbers["waterfall of the trace s"] = time.perf_counter() - started
    numbers["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    trace.close()
    for name, value in numbers.items():
        print(f"{name:32} {value:10.3f}")


if __name__ == "__main__":
    main()
