"""How fast and in how much memory other tools' traces import: an OTLP JSON file of 5,000 agent traces
(50,000 spans, ~140 MB: an agent span, three model calls with their growing message history, three
parallel tool calls after each of the first two) written to a folder, one trace per trace id, as
`loopscope import FILE -o FOLDER` does; and the offline token counter's speed.

    uv run python bench/bench_import.py [TRACES]      (the import runs in a child process, so its
                                                      peak memory is its own)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

T0 = 1_700_000_000_000_000_000  # ns
MS = 1_000_000
FILLER = "The quarterly report lists rose prices by region, supplier and season; " * 12
TRACES_PER_BATCH = 100  # an exporter's batch: one resourceSpans each


def _attr(key: str, value) -> dict:
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def _span(trace: int, number: int, parent: int | None, name: str, start: int, end: int, attrs: list) -> dict:
    span = {
        "traceId": f"{trace:032x}",
        "spanId": f"{trace:08x}{number:08x}",
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": attrs,
        "status": {},
    }
    if parent is not None:
        span["parentSpanId"] = f"{trace:08x}{parent:08x}"
    return span


def _messages(prefix: str, messages: list[dict]) -> list:
    attrs = []
    for index, message in enumerate(messages):
        attrs.append(_attr(f"{prefix}.{index}.message.role", message["role"]))
        if message.get("content"):
            attrs.append(_attr(f"{prefix}.{index}.message.content", message["content"]))
        for call_index, call in enumerate(message.get("tool_calls", ())):
            base = f"{prefix}.{index}.message.tool_calls.{call_index}.tool_call"
            attrs += [
                _attr(f"{base}.id", call["id"]),
                _attr(f"{base}.function.name", call["name"]),
                _attr(f"{base}.function.arguments", call["arguments"]),
            ]
        if message.get("tool_call_id"):
            attrs.append(_attr(f"{prefix}.{index}.message.tool_call_id", message["tool_call_id"]))
    return attrs


def trace_spans(trace: int) -> list[dict]:
    """One agent run: plan, three tools in parallel, plan, three tools, answer (10 spans)."""
    at = T0 + trace * 10_000 * MS
    history = [
        {"role": "system", "content": "You are a pricing assistant. " + FILLER[:600]},
        {"role": "user", "content": f"Run {trace}: what should a bunch of roses cost in each region?"},
    ]
    spans, clock = [], at + MS
    for round_number in range(3):
        calls = (
            [
                {
                    "id": f"call_{trace}_{round_number}_{n}",
                    "name": "Search",
                    "arguments": json.dumps({"q": f"region {n}"}),
                }
                for n in range(3)
            ]
            if round_number < 2
            else []
        )
        reply = {"role": "assistant", "content": "" if calls else "Roses cost 25 yuan. " + FILLER, "tool_calls": calls}
        llm_attrs = [
            _attr("openinference.span.kind", "LLM"),
            _attr("llm.model_name", "gpt-4o-mini"),
            *_messages("llm.input_messages", history),
            *_messages("llm.output_messages", [reply]),
            _attr("llm.token_count.prompt", 300 + 200 * round_number),
            _attr("llm.token_count.completion", 40),
        ]
        number = len(spans) + 1
        spans.append(_span(trace, number, 0, "ChatOpenAI", clock, clock + 400 * MS, llm_attrs))
        clock += 401 * MS
        history.append(reply)
        for call in calls:
            observation = f"{call['arguments']}: 25 yuan a bunch. " + FILLER[:560]
            tool_attrs = [
                _attr("openinference.span.kind", "TOOL"),
                _attr("tool.name", call["name"]),
                _attr("tool_call.id", call["id"]),
                _attr("input.value", call["arguments"]),
                _attr("output.value", observation),
            ]
            spans.append(_span(trace, len(spans) + 1, 0, call["name"], clock, clock + 300 * MS, tool_attrs))
            history.append({"role": "tool", "tool_call_id": call["id"], "content": observation})
        clock += 301 * MS
    root_attrs = [
        _attr("openinference.span.kind", "AGENT"),
        _attr("input.value", history[1]["content"]),
        _attr("output.value", history[-1]["content"]),
        _attr("session.id", f"session-{trace % 50}"),
    ]
    spans.append(_span(trace, 0, None, "AgentExecutor", at, clock, root_attrs))
    return spans  # children first, as an exporter sends them (a span is sent when it ends)


def write_file(path: Path, traces: int) -> int:
    """The OTLP JSON document, one resourceSpans per batch of traces, written as it is made."""
    spans = 0
    with path.open("w") as out:
        out.write('{"resourceSpans": [')
        for batch in range(0, traces, TRACES_PER_BATCH):
            batch_spans = [
                span for trace in range(batch, min(batch + TRACES_PER_BATCH, traces)) for span in trace_spans(trace)
            ]
            spans += len(batch_spans)
            resource_spans = {
                "resource": {"attributes": [_attr("service.name", "rose-agent")]},
                "scopeSpans": [{"scope": {"name": "openinference.instrumentation.langchain"}, "spans": batch_spans}],
            }
            out.write(("," if batch else "") + json.dumps(resource_spans))
        out.write("]}\n")
    return spans


def import_in_child(path: Path, folder: Path) -> tuple[float, float, float, int]:
    """(seconds, CPU seconds, peak RSS in MB, traces written) of `loopscope import PATH -o FOLDER` in a
    child process, timed from the command's start (the interpreter's and the imports' start-up left out).
    The CPU time is what a shared machine's load does not stretch."""
    code = (
        "import resource, sys, time\n"
        "from tracer.cli import main\n"
        "started = time.perf_counter()\n"
        f"code = main(['import', {str(path)!r}, '-o', {str(folder)!r}])\n"
        "took = time.perf_counter() - started\n"
        "usage = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    took, cpu, peak, code_text = done.stderr.strip().splitlines()[-1].split()
    assert code_text == "0", done.stderr
    return float(took), float(cpu), float(peak), len(list(folder.glob("*.jsonl")))


def main(traces: int = 5000) -> None:
    folder = Path(tempfile.mkdtemp())
    path = folder / "spans.json"
    spans = write_file(path, traces)
    size = path.stat().st_size / 1e6
    runs = []
    load = os.getloadavg()[0]  # on a shared machine the wall time says as much about the others
    for attempt in range(3):
        out = folder / f"out{attempt}"
        runs.append(import_in_child(path, out))
    took, _cpu, peak, written = min(runs)
    cpu = min(run[1] for run in runs)
    print(
        f"OTLP JSON, {spans:,} spans in {traces:,} traces ({size:.0f} MB) -> {written:,} trace files: "
        f"{took:.2f} s best of 3 ({spans / took:,.0f} spans/s; {cpu:.2f} s CPU, best of 3), "
        f"peak RSS {peak:.0f} MB; load average {load:.2f} on {os.cpu_count()} CPUs"
    )
    from tracer.report.cost.tokens import estimate_tokens

    text = "Thought: 我需要先找到目前市场上玫瑰花的一般进货价格 Action: Search\n" * 2000
    best = min(_timed(lambda: estimate_tokens(text)) for _ in range(5))
    print(
        f"token counter: {len(text) / 1e3:.0f} k chars in {best * 1e3:.1f} ms ({len(text) / best / 1e6:.1f} M chars/s)"
    )


def _timed(thunk) -> float:
    started = time.perf_counter()
    thunk()
    return time.perf_counter() - started


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
