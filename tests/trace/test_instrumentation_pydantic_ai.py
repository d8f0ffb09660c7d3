"""pydantic-ai's own instrumentation, in every form it writes (the GenAI `gen_ai.input.messages` /
`gen_ai.output.messages` attributes; version 1's events, kept in a span attribute or sent as log records)
opens message-exact against what the local server received and answered (tests/data/instrumentations)."""

from __future__ import annotations

import json

import pytest

from tests.trace.instrumentation_truth import DATA, Compared, assert_message_exact

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
