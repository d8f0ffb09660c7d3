"""A big OTLP file imported into a folder by two processes writes the very files one process writes, reports the
same lines in the same order, and a Ctrl-C (a real SIGINT to real processes) leaves whole traces and nothing half-written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tracer.trace.importers import ImportProblem, import_to_folder
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


def imported(path: Path, folder: Path, processes: int) -> tuple[str, int, list[tuple], dict[str, bytes]]:
    found = import_to_folder(path, folder, processes=processes)
    written = [(w.path.name, w.recognised, w.events, w.notes) for w in found.written]
    return found.label, found.traces, written, {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_two_processes_write_the_files_one_writes_and_report_them_in_the_same_order(tmp_path):
    source = hostile_file(tmp_path / "spans.json")
    one = imported(source, tmp_path / "one", processes=1)
    two = imported(source, tmp_path / "two", processes=2)
    label, traces, written, files = one
    assert (label, traces) == ("OTLP JSON", 40)
    assert "Agent-abababababab-2.jsonl" in files  # the second of the colliding names
    notes = written[0][3]
    assert "4 part(s) of the file could not be read" in notes[0] and "'soon'" in notes[0]
    assert written[0][1] == "OTLP JSON: 10 spans, 4 LLM, 4 tool"  # the spans naming no trace joined the first
    assert two == one


def test_two_processes_refuse_a_file_with_no_model_call_in_one_line_as_one_does(tmp_path):
    spans = [span for trace in range(3) for span in run_spans(trace, f"{trace + 1:032x}")]
    for span in spans:
        span["attributes"] = [attr("openinference.span.kind", "CHAIN")]
    source = tmp_path / "chains.json"
    source.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    messages = []
    for processes in (1, 2):
        with pytest.raises(ImportProblem) as refused:
            import_to_folder(source, tmp_path / f"out{processes}", processes=processes)
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and "15 spans, 0 LLM, 0 tool" in messages[0]
    assert not any(tmp_path.glob("out*/*"))


def test_loopscope_own_export_is_read_by_one_process_exactly(tmp_path):
    from tests.helpers.paths import ROSE

    exported = tmp_path / "rose.json"
    from tracer.cli import main

    assert main(["export", "--format", "otlp-json", "-o", str(exported), str(ROSE)]) == 0
    one = imported(exported, tmp_path / "one", processes=1)
    assert imported(exported, tmp_path / "two", processes=2) == one
    assert "kept exactly" in one[2][0][1]


# Runs the CLI with the two-process import for any size, and each process's writer pausing within its
# third trace (as a slow disk would) and saying so: both have a half-written trace when the signal comes.
PAUSING_IMPORT = r"""
import os, sys, time
from tracer.trace import writer
from tracer.trace.importers import two_processes
from tracer.cli import main
two_processes.MIN_BYTES = 0
real_call = writer.TraceWriter.__call__
started = [0]
def slow_call(self, event):
    real_call(self, event)
    started[0] += self.count == 1
    if started[0] == 3 and self.count == 5:
        os.write(1, f"paused {os.getpid()}\n".encode())  # one write: two processes share the pipe
        time.sleep(60)
writer.TraceWriter.__call__ = slow_call
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("whom", ["both (Ctrl-C in a terminal)", "the reading process only"])
def test_ctrl_c_leaves_whole_traces_and_no_half_written_one_in_either_process(tmp_path, whom):
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
    lines = [next(process.stdout) for _ in range(2)]
    paused = {line.split()[1] for line in lines if line.startswith("paused ")}
    assert len(paused) == 2, lines
    if whom.startswith("both"):
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.splitlines() == [
        f"loopscope: interrupted; the trace files finished so far stay in {folder}/ (each whole; none half-written)"
    ], err
    left = sorted(p.name for p in folder.iterdir())
    assert left and all(name.endswith(".jsonl") for name in left)  # no .partial, no .interrupted
    for name in left:
        events = load_trace(folder / name)[1]
        assert events[-1].kind == "chain_end"
    with pytest.raises(ProcessLookupError):  # the other process is gone too
        os.killpg(process.pid, 0)
