"""pydantic-ai's own instrumentation, in every form it writes (the GenAI `gen_ai.input.messages` /
`gen_ai.output.messages` attributes; version 1's events, kept in a span attribute or sent as log records)
opens message-exact against what the local server received and answered (tests/data/instrumentations)."""

from __future__ import annotations

import json

import pytest

from tests.trace.instrumentation_truth import DATA, Compared, assert_message_exact
from tracer.trace.importers import convert

EVERY_CALL = Compared(model_calls=2, messages=7, tool_calls=2, tool_results=2)


@pytest.mark.parametrize("name", ["pydantic-ai-genai", "pydantic-ai-events", "pydantic-ai-logs"])
def test_pydantic_ai_instrumentation_opens_message_exact(name):
    assert assert_message_exact(name) == EVERY_CALL


def test_the_logs_form_opens_whichever_document_comes_first(tmp_path):
    # A collector writes each pipeline's batches as they come: the log records may precede their spans.
    spans, logs = (DATA / "pydantic-ai-logs.otlp.json").read_text(encoding="utf-8").splitlines()
    reversed_file = tmp_path / "logs-first.json"
    reversed_file.write_text(logs + "\n" + spans + "\n", encoding="utf-8")
    assert assert_message_exact("pydantic-ai-logs", recording=reversed_file) == EVERY_CALL


def test_the_logs_form_read_whole_when_its_first_key_is_not_the_envelope(tmp_path):
    # JSON whose first key is not resourceSpans/resourceLogs is parsed whole rather than walked a span at a time.
    documents = [json.loads(line) for line in (DATA / "pydantic-ai-logs.otlp.json").read_text().splitlines()]
    moved = tmp_path / "keys-moved.json"
    moved.write_text("".join(json.dumps({"note": "x", **d}) + "\n" for d in documents), encoding="utf-8")
    assert assert_message_exact("pydantic-ai-logs", recording=moved) == EVERY_CALL


def test_earlier_calls_take_the_tool_spans_rendering_only_when_it_says_the_same(tmp_path):
    # The compact text of a call's tool span stands for the model's in later requests only when both are
    # the same arguments: a tool span that says Lyon leaves the history as the model wrote it.
    recording = (DATA / "pydantic-ai-genai.otlp.json").read_text(encoding="utf-8")
    tool_span_says = '"stringValue": "{\\"city\\":\\"Paris\\"}"'
    assert recording.count(tool_span_says) == 1
    changed = tmp_path / "lyon.json"
    changed.write_text(recording.replace(tool_span_says, tool_span_says.replace("Paris", "Lyon")), encoding="utf-8")
    events = convert(changed).events
    second = [e for e in events if e.kind == "llm_start"][1]
    sent = [c["function"]["arguments"] for c in second.messages[2]["tool_calls"]]
    assert sent == ['{"city": "Paris"}', '{"city":"Oslo"}']
    starts = {e.tool_call_id: e.tool_input for e in events if e.kind == "tool_start"}
    assert starts == {"call_paris": '{"city": "Lyon"}', "call_oslo": '{"city": "Oslo"}'}
