"""OTLP JSON written a span at a time (issue 34): the same document wire.otlp_json builds whole, and a trace with
a big observation exported in memory that grows with that observation, not with the whole document."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tests.helpers.paths import FIXTURES, ROSE
from tracer.report.otlp import json_file
from tracer.report.otlp.export import spans_of
from tracer.report.otlp.json_file import OTLPJSONWriter, write_otlp_json
from tracer.report.otlp.wire import otlp_json
from tracer.trace.transitions import Trace

ALL = sorted(FIXTURES.rglob("*.jsonl"))


def streamed(spans) -> dict:
    out = io.StringIO()
    writer = OTLPJSONWriter(out)
    for span in spans:
        writer.write(span)
    writer.close()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("slice_at", [1 << 20, 7])  # 7: every string and span written slice by slice
def test_the_streamed_document_is_the_one_otlp_json_builds(monkeypatch, slice_at):
    monkeypatch.setattr(json_file, "STRING_SLICE", slice_at)
    spans = [span for path in ALL for span in spans_of(Trace.load(path))]
    assert streamed(spans) == otlp_json(spans)


def test_no_spans_is_an_empty_document():
    assert streamed([]) == {} == otlp_json([])


def test_control_characters_and_non_ascii_survive_slicing_as_escapes(tmp_path, monkeypatch):
    monkeypatch.setattr(json_file, "STRING_SLICE", 5)
    lines = ROSE.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == "tool_end")
    event = json.loads(lines[at])
    event["observation"] = "玫瑰\x1b[31m red \u202e evil \x9b end" * 3
    lines[at] = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
    path = tmp_path / "t.jsonl"
    path.write_text("".join(lines), "utf-8")
    out = io.StringIO()
    write_otlp_json([path], out)
    text = out.getvalue()
    assert "\x1b" not in text and "\u202e" not in text and "\x9b" not in text
    assert "\\u001b[31m" in text and "\\u202e" in text
    spans = json.loads(text)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    outputs = [a["value"]["stringValue"] for s in spans for a in s.get("attributes", []) if a["key"] == "output.value"]
    assert event["observation"] in outputs


CHILD = """
import resource, sys
from tracer.cli import main
assert main(sys.argv[1:]) == 0
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def peak_mb(*argv: str) -> float:
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def test_a_30_mb_observation_is_exported_without_holding_the_whole_document(tmp_path):
    megabytes = 30
    lines = ROSE.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == "tool_end")
    event = json.loads(lines[at])
    event["observation"] += " roses" * (megabytes * 1_000_000 // 6)
    lines[at] = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
    trace = tmp_path / "big.jsonl"
    trace.write_text("".join(lines), "utf-8")
    baseline = peak_mb("verify", str(ROSE))
    out = tmp_path / "spans.json"
    grown = peak_mb("export", "--format", "otlp-json", "-o", str(out), str(trace)) - baseline
    # The observation is a 60 MB str in memory (one CJK character makes Python keep 2 bytes a
    # character): the event, its JSON for the span event and the redactor's look at it are held at
    # once; the whole document (three copies of it, then its JSON text) was 23x. See bench/bench_memory.py.
    assert grown < 12 * megabytes, f"{grown:.0f} MB more than a small export"
    document = json.loads(out.read_text("utf-8"))
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert any(
        a["key"] == "output.value" and a["value"]["stringValue"] == event["observation"]
        for s in spans
        for a in s.get("attributes", [])
    )
