"""Every shipped fixture, sent as OTLP protobuf: the tree holds for each, and what the collector got imports back exactly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from tests.helpers.otlp_receiver import OTLPReceiver
from tests.helpers.otlp_tree import SpanTree
from tracer.cli import main
from tracer.report.otlp.wire import request_json
from tracer.trace import otel_mapping as om
from tracer.trace.reader import load_trace
from tutorials import get_scenario

FIXTURES = sorted(get_scenario("rose-pricing").fixture.parent.glob("*.jsonl"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.stem)
def test_what_a_collector_receives_has_a_sound_tree_and_imports_back_as_the_same_events(fixture, tmp_path, capsys):
    events = load_trace(fixture)[1]
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(fixture)]) == 0
    tree = SpanTree(receiver.spans)
    assert [root.kind for root in tree.roots] == ["AGENT"]
    for span in tree.of_kind("TOOL"):
        assert not any(a.kind == "TOOL" for a in tree.ancestors(span)), span.name
        carried = [json.loads(a[om.EVENT_JSON]) for name, _t, a in span.events if name.startswith("tool_")]
        # a TOOL span holds its own call's events only: one tool, one call id
        assert {(c["tool"], c.get("tool_call_id")) for c in carried} == {
            (span.attributes["tool.name"], span.attributes.get("tool_call.id"))
        }
    seqs = sorted(
        json.loads(a[om.EVENT_JSON])["seq"] for s in tree.spans for _n, _t, a in s.events if om.EVENT_JSON in a
    )
    assert seqs == [e.seq for e in events]  # each event on exactly one span
    # the protobuf the collector decoded, as OTLP JSON, read by `loopscope import`
    spans, back = tmp_path / "received.json", tmp_path / "back.jsonl"
    request = ExportTraceServiceRequest()
    for body in receiver.bodies:
        request.MergeFromString(body)
    spans.write_text(json.dumps(request_json(request)))
    assert main(["import", str(spans), "-o", str(back)]) == 0
    capsys.readouterr()
    assert load_trace(back)[1] == events


@pytest.mark.slow  # a fresh interpreter per path
@pytest.mark.parametrize("hidden", ["google", "opentelemetry.sdk.trace", "opentelemetry.exporter"])
def test_without_the_otel_extra_each_export_path_says_so_in_one_line(hidden, tmp_path):
    """Not `No module named 'google'`: the one line names the extra to install, and --mermaid still works."""
    rose = str(FIXTURES[0].parent / "rose_pricing.jsonl")
    code = f"""
import sys
sys.modules[{hidden!r}] = None
from tracer.cli import main
for args in (["--format", "otlp-json", "-o", {str(tmp_path / "x.json")!r}], ["--otlp", "http://127.0.0.1:9"]):
    print(main(["export", *args, {rose!r}]))
print(main(["export", "--mermaid", {rose!r}, "-o", {str(tmp_path / "x.mmd")!r}]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split("\n")[:2] == ["2", "2"] and done.stdout.rstrip().endswith("0"), done
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all("pip install 'loopscope[otel]'" in line for line in lines), lines
    assert "No module named" not in done.stderr and not (tmp_path / "x.json").exists()


def test_a_round_trip_keeps_the_agents_name_for_the_file_runs_and_verify(tmp_path, capsys, monkeypatch):
    from tests.helpers.shop_agents import record_shop
    from tracer.trace.transitions import Trace

    trace, spec = record_shop(tmp_path, "react", monkeypatch)
    spans, out = tmp_path / "spans.json", tmp_path / "back"
    assert main(["export", str(trace), get_scenario("rose-pricing").fixture.as_posix(), "--format", "otlp-json"]
                + ["-o", str(spans)]) == 0  # fmt: skip
    root = next(s for r in json.loads(spans.read_text("utf-8"))["resourceSpans"] for sc in r["scopeSpans"]
                for s in sc["spans"] if not s.get("parentSpanId") and any(a["key"] == om.AGENT_SPEC
                                                                          for a in s["attributes"]))  # fmt: skip
    assert {"key": om.AGENT_SPEC, "value": {"stringValue": spec}} in root["attributes"]
    assert main(["import", str(spans), "-o", str(out)]) == 0
    written = sorted(path.name.rsplit("-", 1)[0] for path in out.glob("*.jsonl"))
    assert written == ["rose-pricing", "shop-react"], written  # named as the runs were, not trace-<id>
    back = next(out.glob("shop-react-*.jsonl"))
    assert Trace.load(back).header.agent == spec and Trace.load(back).header.scenario is None
    capsys.readouterr()
    assert main(["runs", str(out), "--json"]) == 0
    assert sorted(json.loads(line)["name"] for line in capsys.readouterr().out.splitlines()) == ["rose-pricing", spec]
    assert main(["verify", str(back), "--agent", spec]) == 0, capsys.readouterr()
