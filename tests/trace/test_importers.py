"""Other tools' traces become loopscope events: OTLP JSON from the real SDK, Langfuse and LangSmith exports."""

from __future__ import annotations

import itertools
import json

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.helpers.foreign_traces import (
    FINAL_REPLY,
    PLAN_REPLY,
    otlp_json_document,
    write_langfuse,
    write_langsmith,
    write_otlp,
)
from tests.helpers.paths import FIXTURES, ROSE
from tracer.report.narration.ledger import Ledger
from tracer.trace import otel_mapping as om
from tracer.trace.importers import ImportProblem, convert
from tracer.trace.reader import TraceFile, load_trace
from tracer.trace.transitions import Trace


def kinds(events):
    return [e.kind for e in events]


def test_otlp_spans_from_the_sdk_become_events_in_time_order_with_parallel_tools_as_siblings(tmp_path):
    conversion = convert(write_otlp(tmp_path / "spans.json", orphan=False))
    events = conversion.events
    assert conversion.recognised == "OTLP JSON: 6 spans, 2 LLM, 3 tool" and not conversion.warnings
    assert kinds(events) == [
        "chain_start",
        "llm_start",
        "llm_end",
        "tool_start",
        "tool_start",
        "tool_start",
        "tool_error",
        "tool_end",
        "tool_end",
        "llm_start",
        "llm_end",
        "chain_end",
    ]
    assert [e.seq for e in events] == list(range(len(events)))
    assert all(a.t <= b.t for a, b in itertools.pairwise(events))
    tools = {e.tool: e.frames for e in events if e.kind == "tool_start"}
    # Siblings under the agent span, not nested in each other.
    assert tools == {name: ("AgentExecutor", name) for name in ("Search", "Calculator", "Divide")}
    first_llm, first_reply = events[1], events[2]
    assert first_llm.model == "gpt-4o-mini-2024-07-18"
    assert first_llm.messages == [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "What do roses cost, plus 5%?"},
    ]
    assert first_llm.prompt == "[system]\nYou are an agent.\n\n[user]\nWhat do roses cost, plus 5%?"
    assert first_reply.text == PLAN_REPLY and events[-2].text == FINAL_REPLY
    assert first_reply.usage == {"prompt_tokens": 52, "completion_tokens": 19, "total_tokens": 71}
    error = events[6]
    assert (error.tool, error.error_type, error.message) == ("Divide", "ZeroDivisionError", "division by zero")
    assert events[0].inputs == {"input": "rose price + 5%?"} and events[-1].outputs == {"output": "26.25 yuan"}
    assert [e.iteration for e in events if e.kind == "llm_start"] == [1, 2]


def test_a_span_whose_parent_is_missing_is_kept_at_the_top_level_with_a_warning(tmp_path):
    conversion = convert(write_otlp(tmp_path / "spans.json"))
    assert conversion.warnings == [
        "1 span(s) name a parent that is not in the file (lost-tool): shown at the top level"
    ]
    lost = [e for e in conversion.events if e.frames[-1:] == ("lost-tool",)]
    assert [e.kind for e in lost] == ["tool_start", "tool_end"] and len(lost[0].frames) == 2
    assert conversion.events[0].inputs == {"input": "rose price + 5%?"}  # the run keeps the agent's input


def test_imported_usage_is_the_endpoints_and_is_priced_as_such(tmp_path):
    ledger = Ledger.of(convert(write_otlp(tmp_path / "spans.json", orphan=False)).events)
    assert [(c.prompt_tokens, c.completion_tokens, c.estimated) for c in ledger.calls] == [
        (52, 19, False),
        (80, 12, False),
    ]
    assert ledger.calls[0].price.entry == "gpt-4o-mini"


def test_a_langfuse_trace_export(tmp_path):
    conversion = convert(write_langfuse(tmp_path / "langfuse.json"))
    assert conversion.recognised.startswith("Langfuse trace")
    assert kinds(conversion.events) == [
        "chain_start",
        "llm_start",
        "llm_end",
        "tool_start",
        "tool_end",
        "llm_start",
        "llm_end",
        "chain_end",
    ]
    llm_end = conversion.events[2]
    assert llm_end.text == PLAN_REPLY and llm_end.usage["prompt_tokens"] == 30
    assert conversion.events[5].messages == [{"role": "user", "content": "Observation: 25 yuan"}]
    assert conversion.events[-1].outputs == {"output": "26.25 yuan"}


def test_a_langsmith_run_export_with_a_failed_tool(tmp_path):
    events = convert(write_langsmith(tmp_path / "runs.json")).events
    assert kinds(events) == ["chain_start", "llm_start", "llm_end", "tool_start", "tool_error", "chain_end"]
    assert events[1].messages == [{"role": "user", "content": "rose price?"}] and events[1].model == "gpt-4o-mini"
    assert events[2].usage["completion_tokens"] == 7
    assert (events[4].error_type, events[4].message, events[4].handled) == ("TimeoutError", "search timed out", True)


def test_unknown_and_partial_files_get_one_line_naming_what_was_recognised(tmp_path):
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"name": "x", "spans": []}, indent=2))
    with pytest.raises(ImportProblem, match="found a JSON object with keys name, spans; expected"):
        convert(unknown)
    no_calls = tmp_path / "chains.json"
    document = {}
    document["resourceSpans"] = [
        {
            "scopeSpans": [
                {"spans": [{"spanId": "01", "name": "step", "startTimeUnixNano": "1", "endTimeUnixNano": "2"}]}
            ]
        }
    ]
    no_calls.write_text(json.dumps(document))
    with pytest.raises(ImportProblem) as caught:
        convert(no_calls)
    assert "recognised OTLP JSON: 1 spans, 0 LLM, 0 tool, but no span is a model or tool call" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_spans_loopscope_exported_come_back_as_the_same_events(tmp_path):
    """What issue 16's exporter writes: every event rides on a span event as JSON; the import is exact."""
    _header, events, _ = load_trace(ROSE)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    span = provider.get_tracer("loopscope").start_span(om.ROOT_SPAN_NAME, attributes={om.SPAN_KIND: om.AGENT})
    for event in events:
        span.add_event(event.kind, {om.EVENT_JSON: event.model_dump_json()})
    span.end()
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(otlp_json_document(exporter.get_finished_spans())))
    assert convert(path).events == events
    assert Trace.load(path).transitions() == Trace.load(ROSE).transitions()


def test_the_trace_reader_converts_on_the_fly_so_every_command_can_open_them(tmp_path):
    with TraceFile(write_otlp(tmp_path / "spans.json")) as trace:
        assert len(trace) == 14 and trace.header.model_extra["import_format"] == "otlp-json"
        assert trace.import_note.startswith("imported spans.json: OTLP JSON")
        assert "parent that is not in the file" in trace.notice


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.jsonl")), ids=lambda path: path.stem)
def test_export_otlp_json_then_import_gives_back_the_same_transitions(fixture, tmp_path, capsys):
    """The round trip through issue 16's exporter, as a user runs it: export --format otlp-json, then import."""
    from tracer.cli import main

    spans, back = tmp_path / "spans.json", tmp_path / "back.jsonl"
    assert main(["export", "--format", "otlp-json", str(fixture), "-o", str(spans)]) == 0
    assert main(["import", str(spans), "-o", str(back)]) == 0
    capsys.readouterr()
    assert Trace.load(back).transitions() == Trace.load(fixture).transitions()
    assert load_trace(back)[1] == load_trace(fixture)[1]


def test_a_parallel_runs_otlp_export_read_by_its_attributes_alone_keeps_each_calls_siblings_and_results(
    tmp_path, capsys
):
    """Without loopscope's own event JSON, as Phoenix or a collector would pass the spans on: the
    OpenInference and GenAI attributes alone give back each call's id, input, output and failure."""
    from tracer.cli import main

    spans = tmp_path / "spans.json"
    assert main(["export", "--format", "otlp-json", str(FIXTURES / "parallel_tools.jsonl"), "-o", str(spans)]) == 0
    capsys.readouterr()
    document = json.loads(spans.read_text())
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                span.pop("events", None)
    spans.write_text(json.dumps(document))
    imported = convert(spans).events
    recorded = load_trace(FIXTURES / "parallel_tools.jsonl")[1]

    def results(events):
        """Each call's result: its observation, or its error's message."""
        found = {}
        for e in events:
            if e.kind == "tool_error":
                found.setdefault(e.tool_call_id, e.message)
            elif e.kind == "tool_end":
                found.setdefault(e.tool_call_id, e.observation)
        return found

    got, want = results(imported), results(recorded)
    assert got.keys() == want.keys() == {"call_bj", "call_sh", "call_gz"}
    assert all(want[call] in got[call] for call in want)  # Guangzhou's timeout on Guangzhou's span
    starts = {e.tool_call_id: e.frames for e in imported if e.kind == "tool_start"}
    assert len(set(starts.values())) == 1 and len(starts) == 3  # siblings, one call each
    last = [e for e in imported if e.kind == "llm_start"][-1]
    sent = [e for e in recorded if e.kind == "llm_start"][-1].messages
    assert last.messages == [dict(m, content=m["content"] or "") for m in sent]  # a call-only reply's null: ""
    assert [e.iteration for e in imported if e.kind == "llm_start"] == [1, 2]
