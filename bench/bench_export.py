"""How fast a trace becomes OTLP: every shipped fixture turned into spans (spans_of) and OTLP JSON, repeated."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))  # run from a checkout: that checkout's tracer
from tracer.report.otlp.export import spans_of
from tracer.report.otlp.wire import otlp_json
from tracer.trace.transitions import Trace


def main(repeats: int = 20) -> None:
    traces = [Trace.load(path) for path in sorted(Path("fixtures").glob("*.jsonl"))]
    events = sum(len(trace.events) for trace in traces) * repeats
    spans = size = 0
    started = time.perf_counter()
    for _ in range(repeats):
        for trace in traces:
            made = spans_of(trace)
            spans += len(made)
            size += len(json.dumps(otlp_json(made), ensure_ascii=False))
    took = time.perf_counter() - started
    print(
        f"{len(traces)} fixtures x {repeats}: {events:,} events -> {spans:,} spans, {size / repeats / 1e3:.0f} kB "
        f"of OTLP JSON a pass, in {took:.2f} s ({events / took:,.0f} events/s, {spans / took:,.0f} spans/s)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
