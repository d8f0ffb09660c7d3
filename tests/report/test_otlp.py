"""Traces as OpenTelemetry spans: sent to a real local OTLP/HTTP receiver and decoded there, or written as OTLP JSON."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from executor import ScriptedModel
from executor.events import CLASS_BY_KIND
from tests.helpers.otlp_receiver import OTLPReceiver, decode
from tracer import OTelListener, Trace, TraceWriter
from tracer.cli import main
from tracer.trace import otel_mapping as om
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing").fixture


def _tree(spans):
    by_id = {s.span_id: s for s in spans}
    return by_id, {s.span_id: (by_id[s.parent_id] if s.parent_id else None) for s in spans}


def _assert_rose_span_tree(spans, events):
    _by_id, parent = _tree(spans)
    roots = [s for s in spans if parent[s.span_id] is None]
    assert [(r.name, r.kind) for r in roots] == [("AgentExecutor", "AGENT")]
    root = roots[0]
    assert len({s.trace_id for s in spans}) == 1
    rounds = sorted((s for s in spans if s.kind == "CHAIN"), key=lambda s: s.start)
    assert [parent[r.span_id] for r in rounds] == [root] * 3
    assert [r.attributes[om.ITERATION] for r in rounds] == [1, 2, 3]
    llms = sorted((s for s in spans if s.kind == "LLM"), key=lambda s: s.start)
    assert [(s.name, parent[s.span_id].name) for s in llms] == [
        ("plan", "_take_next_step"),
        ("plan", "_take_next_step"),
        ("calculate", "Calculator"),
        ("plan", "_take_next_step"),
    ]
    prompts = [e.prompt for e in events if e.kind == "llm_start"]
    replies = [e.text for e in events if e.kind == "llm_end"]
    assert [s.attributes["llm.input_messages.0.message.content"] for s in llms] == prompts
    assert [s.attributes["llm.output_messages.0.message.content"] for s in llms] == replies
    assert {s.attributes["llm.model_name"] for s in llms} == {"scripted"}
    tools = sorted((s for s in spans if s.kind == "TOOL"), key=lambda s: s.start)
    assert [(t.attributes["tool.name"], parent[t.span_id] is rounds[i]) for i, t in enumerate(tools)] == [
        ("Search", True),
        ("Calculator", True),
    ]
    assert tools[1].attributes["input.value"] == "25 * 1.05" and tools[1].attributes["output.value"] == "Answer: 26.25"
    assert json.loads(root.attributes["output.value"])["output"].endswith("26.25元。")
    # event timestamps kept: every span event sits at its event's t after the run's start
    carried = sorted(
        ((json.loads(a[om.EVENT_JSON]), t) for s in spans for _n, t, a in s.events), key=lambda pair: pair[0]["seq"]
    )
    first_t = carried[0][0]["t"]
    for data, t in carried:
        assert abs((t - root.start) - round((data["t"] - first_t) * 1e9)) <= 1
    return carried


def test_export_sends_the_rose_run_to_a_collector_as_a_correct_span_tree(capsys):
    trace = Trace.load(ROSE)
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(ROSE)]) == 0
    assert f"sent 10 spans of 1 trace(s) to {receiver.url}" in capsys.readouterr().out
    carried = _assert_rose_span_tree(receiver.spans, trace.events)
    # lossless: the span events carry every loopscope event, so an importer can rebuild the run
    rebuilt = [CLASS_BY_KIND[data["kind"]].model_validate(data) for data, _t in carried]
    assert sorted(rebuilt, key=lambda e: e.seq) == trace.events


def test_redaction_applies_before_spans_leave(monkeypatch):
    monkeypatch.setenv("LOOPSCOPE_REDACT", "情人节前夕")  # a pattern added after the trace was written
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(ROSE)]) == 0
    body = b"".join(receiver.bodies)
    assert "情人节前夕".encode() not in body and "花卉市场".encode() in body


@pytest.mark.parametrize("refuse", [503, None])
def test_a_collector_that_refuses_or_is_down_gives_one_line_and_changes_nothing(tmp_path, capsys, refuse):
    copy = tmp_path / "rose.jsonl"
    copy.write_bytes(ROSE.read_bytes())
    before = hashlib.sha256(copy.read_bytes()).hexdigest()
    with OTLPReceiver(refuse_with=refuse or 200) as receiver:
        url = receiver.url
    if refuse:
        with OTLPReceiver(refuse_with=refuse) as receiver:
            code = main(["export", "--otlp", receiver.url, str(copy)])
    else:
        code = main(["export", "--otlp", url, str(copy)])  # the receiver is gone: nothing listens there
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: ")
    assert ("HTTP 503" in err) if refuse else ("cannot reach the collector" in err)
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == before


def test_otlp_json_file_has_hex_ids_and_the_same_tree(tmp_path):
    out = tmp_path / "rose.json"
    assert main(["export", "--format", "otlp-json", "-o", str(out), str(ROSE)]) == 0
    document = json.loads(out.read_text())
    spans = [s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]]
    assert len(spans) == 10
    assert all(len(s["traceId"]) == 32 and len(s["spanId"]) == 16 for s in spans)
    ids = {s["spanId"] for s in spans}
    assert all(s.get("parentSpanId", "") in ids for s in spans if s["name"] != "AgentExecutor")
    assert Counter(s["name"] for s in spans)["plan"] == 3
    kinds = Counter(a["value"]["stringValue"] for s in spans for a in s["attributes"] if a["key"] == om.SPAN_KIND)
    assert kinds == {"AGENT": 1, "CHAIN": 3, "LLM": 4, "TOOL": 2}


def _rose_run(listeners):
    scenario = get_scenario("rose-pricing")
    return scenario.executor(ScriptedModel(list(scenario.replies))).invoke(scenario.inputs(), listeners)


def test_otel_listener_sends_a_live_run_through_the_batch_processor():
    events = []
    with OTLPReceiver() as receiver:
        listener = OTelListener(receiver.url)
        _rose_run([events.append, listener])
        assert listener.close() is None
    _assert_rose_span_tree(receiver.spans, events)


def test_otel_listener_with_the_collector_down_keeps_the_run_and_the_local_trace(tmp_path):
    with OTLPReceiver() as receiver:
        url = receiver.url
    listener = OTelListener(url, timeout=0.5)
    with TraceWriter(tmp_path / "run.jsonl") as writer:
        result = _rose_run([writer, listener])
    problem = listener.close()
    assert "26.25" in result["output"] and "did not take" in problem and "\n" not in problem
    assert Trace.load(tmp_path / "run.jsonl").labels() == Trace.load(ROSE).labels()


def test_mapping_names_are_the_openinference_conventions():
    from openinference.semconv.trace import MessageAttributes, OpenInferenceSpanKindValues, SpanAttributes

    assert om.SPAN_KIND == SpanAttributes.OPENINFERENCE_SPAN_KIND
    for ours, theirs in [
        (om.INPUT_VALUE, "INPUT_VALUE"),
        (om.OUTPUT_VALUE, "OUTPUT_VALUE"),
        (om.LLM_MODEL_NAME, "LLM_MODEL_NAME"),
        (om.LLM_INPUT_MESSAGES, "LLM_INPUT_MESSAGES"),
        (om.LLM_OUTPUT_MESSAGES, "LLM_OUTPUT_MESSAGES"),
        (om.TOOL_NAME, "TOOL_NAME"),
        (om.LLM_TOKEN_COUNT_PROMPT, "LLM_TOKEN_COUNT_PROMPT"),
        (om.LLM_INVOCATION_PARAMETERS, "LLM_INVOCATION_PARAMETERS"),
        (om.INPUT_MIME_TYPE, "INPUT_MIME_TYPE"),
        (om.METADATA, "METADATA"),
    ]:
        assert ours == getattr(SpanAttributes, theirs)
    assert (om.MESSAGE_ROLE, om.MESSAGE_CONTENT) == (MessageAttributes.MESSAGE_ROLE, MessageAttributes.MESSAGE_CONTENT)
    assert {om.AGENT, om.CHAIN, om.LLM, om.TOOL} <= {k.value for k in OpenInferenceSpanKindValues}


def test_receiver_decodes_what_it_is_sent():
    assert decode(b"") == []  # an empty request is valid protobuf and holds no spans


@pytest.mark.slow  # a fresh interpreter
def test_without_opentelemetry_the_import_names_the_extra():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['opentelemetry.sdk.trace'] = None\n"
        "try:\n    from tracer import OTelListener\nexcept ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'loopscope[otel]'" in out


def test_a_lone_surrogate_in_a_tool_observation_exports_as_utf8_and_imports_back_exactly(tmp_path, capsys):
    """A tool's text read with errors="surrogateescape" holds a lone surrogate; the trace writer \\u-escapes it.
    OTLP strings must be UTF-8: attributes carry U+FFFD, the event JSON keeps the escape, so nothing is lost."""
    from tests.helpers.trace_factory import record, with_search_result
    from tracer.trace.reader import load_trace
    from tutorials.rose_pricing import REPLIES

    trace = record(tmp_path / "surrogate.jsonl", REPLIES, with_search_result("25 yuan \ud800 a bunch"))
    assert b"25 yuan \\ud800 a bunch" in trace.read_bytes()
    out, back = tmp_path / "spans.json", tmp_path / "back.jsonl"
    assert main(["export", "--format", "otlp-json", str(trace), "-o", str(out)]) == 0
    document = json.loads(out.read_bytes().decode("utf-8"))  # strict: no surrogate reached the file
    spans = [s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]]
    search = next(s for s in spans if s["name"] == "Search")
    attributes = {a["key"]: a["value"]["stringValue"] for a in search["attributes"]}
    assert attributes["output.value"] == "25 yuan \ufffd a bunch"
    assert main(["import", str(out), "-o", str(back)]) == 0
    assert load_trace(back)[1] == load_trace(trace)[1]
    assert next(e for e in load_trace(back)[1] if e.kind == "tool_end").observation == "25 yuan \ud800 a bunch"
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(trace)]) == 0
    sent = next(s for s in receiver.spans if s.name == "Search")
    assert sent.attributes["output.value"] == "25 yuan \ufffd a bunch"
    assert capsys.readouterr().err == ""
