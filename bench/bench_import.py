"""How fast other tools' traces convert: an OTLP JSON file of N agent rounds (an LLM span and two parallel tool
spans each, made with opentelemetry-sdk), read by the importer; and the offline token counter's speed."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.helpers.foreign_traces import KIND, MS, T0, _llm, _tool, otlp_json_document
from tracer.report.tokens import estimate_tokens
from tracer.trace.importers import convert


def spans(rounds: int):
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("bench")
    root = tracer.start_span("AgentExecutor", start_time=T0, attributes={KIND: "AGENT"})
    for n in range(rounds):
        at = T0 + n * 100 * MS
        _llm(tracer, root, at + MS, at + 40 * MS, f"round {n}: what next?", "Action: Search", (50, 10))
        _tool(tracer, root, "Search", at + 41 * MS, at + 90 * MS, "rose price", "25 yuan")
        _tool(tracer, root, "Calculator", at + 42 * MS, at + 60 * MS, "25 * 1.05", "26.25")
    root.end(end_time=T0 + rounds * 100 * MS)
    return list(exporter.get_finished_spans())


def main(rounds: int = 2000) -> None:
    path = Path(tempfile.mkdtemp()) / "spans.json"
    path.write_text(json.dumps(otlp_json_document(spans(rounds))))
    best = min(_timed(lambda: convert(path)) for _ in range(3))
    events = len(convert(path).events)
    print(
        f"OTLP JSON, {rounds * 3 + 1:,} spans ({path.stat().st_size / 1e6:.1f} MB) -> {events:,} events: "
        f"{best:.2f} s best of 3 ({best / events * 1e6:.1f} µs/event)"
    )
    text = "Thought: 我需要先找到目前市场上玫瑰花的一般进货价格 Action: Search\n" * 2000
    took = min(_timed(lambda: estimate_tokens(text)) for _ in range(5))
    print(
        f"token counter: {len(text) / 1e3:.0f} k chars in {took * 1e3:.1f} ms ({len(text) / took / 1e6:.1f} M chars/s)"
    )


def _timed(thunk) -> float:
    started = time.perf_counter()
    thunk()
    return time.perf_counter() - started


def write_file(path: Path, megabytes: float) -> None:
    """An OTLP JSON file of about `megabytes` MB (~2,300 bytes a round), e.g. for watching `loopscope import`'s
    progress bar: uv run python bench/bench_import.py --write big.json 150"""
    rounds = max(1, int(megabytes * 1e6 / 2_280))
    path.write_text(json.dumps(otlp_json_document(spans(rounds))))
    print(f"wrote {path}: {rounds:,} rounds, {rounds * 3 + 1:,} spans, {path.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--write":
        write_file(Path(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 150.0)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
