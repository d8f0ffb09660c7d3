"""A folder import under a real Ctrl-C (SIGINT to a real process) leaves whole traces and nothing half-written,
and puts the cycle collector back as it found it."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tracer.cli import main
from tracer.trace.reader import load_trace

T0 = 1_700_000_000_000_000_000  # ns
MS = 1_000_000


def attr(key: str, value) -> dict:
    return {"key": key, "value": {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}}


def run_spans(trace: int, trace_id: str | None, name: str = "AgentExecutor") -> list[dict]:
    """One agent run: a model call asking for two tools, the two tools, a model call answering (5 spans)."""
    at = T0 + trace * 10_000 * MS
    ids = [f"{trace:06x}{n:02x}" for n in range(5)]
    calls = [
        {"id": f"call_{trace}_{n}", "name": "Search", "arguments": json.dumps({"q": f"region {n}"})} for n in (0, 1)
    ]
    first = [
        attr("openinference.span.kind", "LLM"),
        attr("llm.model_name", "gpt-4o-mini"),
        attr("llm.input_messages.0.message.role", "user"),
        attr("llm.input_messages.0.message.content", f"Run {trace}: what do roses cost?"),
        attr("llm.output_messages.0.message.role", "assistant"),
        *[
            attr(f"llm.output_messages.0.message.tool_calls.{n}.tool_call.{key}", value)
            for n, call in enumerate(calls)
            for key, value in (
                ("id", call["id"]),
                ("function.name", "Search"),
                ("function.arguments", call["arguments"]),
            )
        ],
        attr("llm.token_count.prompt", 30),
        attr("llm.token_count.completion", 12),
    ]
    tools = [
        [attr("openinference.span.kind", "TOOL"), attr("tool.name", "Search"), attr("tool_call.id", call["id"])]
        + [attr("input.value", call["arguments"]), attr("output.value", f"25 yuan in region {n}")]
        for n, call in enumerate(calls)
    ]
    last = [
        attr("openinference.span.kind", "LLM"),
        attr("llm.input_messages.0.message.role", "user"),
        attr("llm.input_messages.0.message.content", f"Run {trace}: what do roses cost?"),
        attr("llm.output_messages.0.message.role", "assistant"),
        attr("llm.output_messages.0.message.content", "25 yuan everywhere."),
    ]
    made = []
    for number, (span_name, attrs, parent) in enumerate(
        [(name, [attr("openinference.span.kind", "AGENT")], None), ("ChatOpenAI", first, 0)]
        + [("Search", tool, 0) for tool in tools]
        + [("ChatOpenAI", last, 0)]
    ):
        span = {
            "spanId": ids[number],
            "name": span_name,
            "startTimeUnixNano": str(at + number * MS),
            "endTimeUnixNano": str(at + (100 if number == 0 else number + 1) * MS),
            "attributes": attrs,
        }
        if trace_id is not None:
            span["traceId"] = trace_id
        if parent is not None:
            span["parentSpanId"] = ids[parent]
        made.append(span)
    return made


def hostile_file(path: Path, traces: int = 40) -> Path:
    """Traces spread over several batches (a trace's spans in two of them, children before parents),
    spans naming no trace, two traces whose file names collide, and parts of the wrong type here and there."""
    spans = []
    for trace in range(traces):
        twins = trace in (20, 21)  # the same name and the same start of their ids
        trace_id = f"{'ab' * 6}{trace:020x}" if twins else f"{trace + 1:032x}"
        spans += run_spans(trace, trace_id, name="Agent" if twins else "AgentExecutor")
    spans += run_spans(traces, None)  # no trace id: joins the first trace
    spans[3]["startTimeUnixNano"] = "soon"  # a time that is no time
    spans[57]["attributes"].append("not an attribute")
    spans[131]["attributes"][2] = {"key": 5}
    batches = [spans[i : i + 37][::-1] for i in range(0, len(spans), 37)]
    document = {
        "resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": batch}]} for batch in batches]
        + [{"scopeSpans": "not a list"}]
    }
    path.write_text(json.dumps(document))
    return path


# Runs the CLI with the writer pausing within the third trace (as a slow disk would) and saying so:
# a trace is half-written when the signal comes.
PAUSING_IMPORT = r"""
import os, sys, time
from tracer.trace import writer
from tracer.cli import main
real_call = writer.TraceWriter.__call__
started = [0]
def slow_call(self, event):
    real_call(self, event)
    started[0] += self.count == 1
    if started[0] == 3 and self.count == 5:
        os.write(1, b"paused\n")
        time.sleep(60)
writer.TraceWriter.__call__ = slow_call
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_ctrl_c_leaves_whole_traces_and_no_half_written_one(tmp_path):
    source, folder = hostile_file(tmp_path / "spans.json", traces=200), tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSING_IMPORT, "import", str(source), "-o", str(folder)],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    assert process.stdout is not None
    assert next(process.stdout) == "paused\n"
    os.killpg(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.splitlines() == [
        f"loopscope: interrupted; 2 of 200 trace(s) were written to {folder}/ (each whole; none half-written)"
    ], err
    left = sorted(p.name for p in folder.iterdir())
    assert len(left) == 2 and all(name.endswith(".jsonl") for name in left)  # no .partial, no .interrupted
    for name in left:
        assert load_trace(folder / name)[1][-1].kind == "chain_end"


def test_a_folder_import_puts_the_collector_back_as_it_found_it(tmp_path, monkeypatch, capsys):
    """The import turns the cycle collector off while it reads and writes: on after, however it ends."""
    source = hostile_file(tmp_path / "spans.json", traces=30)
    assert gc.isenabled()
    assert main(["import", str(source), "-o", str(tmp_path / "out")]) == 0
    assert gc.isenabled()
    gc.disable()  # off before: left off
    try:
        assert main(["import", str(source), "-o", str(tmp_path / "off")]) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
    seen: list[bool] = []

    def interrupted(*_args, **_kwargs):
        seen.append(gc.isenabled())
        raise KeyboardInterrupt

    monkeypatch.setattr("tracer.trace.importers.folder.write_trace", interrupted)
    assert main(["import", str(source), "-o", str(tmp_path / "again")]) == 130  # a Ctrl-C's exit code
    assert seen == [False] and gc.isenabled()
