"""Traces made by today's OpenTelemetry instrumentations (tests/data/instrumentations, see its README) open
message-exact: every model call's messages, tools offered, reply and tool calls equal what the local
chat-completions server received and answered (the ground truth the recording kept), not what an importer
made of the spans."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.trace.instrumentation_truth import sent as _sent
from tracer.trace.importers import convert

DATA = Path(__file__).resolve().parents[1] / "data" / "instrumentations"
# Each recording, and whether its instrumentation records the tools offered (opentelemetry-instrumentation-
# openai-v2 2.4b0 writes no gen_ai.tool.definitions: the import can show none).
RECORDINGS = {"openinference-openai": True, "otel-openai-v2": False}


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_every_model_call_equals_what_the_server_received_and_answered(name):
    truth = json.loads((DATA / f"{name}.truth.json").read_text())
    events = convert(DATA / f"{name}.otlp.json").events
    starts = [e for e in events if e.kind == "llm_start"]
    ends = [e for e in events if e.kind == "llm_end"]
    assert len(starts) == len(ends) == len(truth)
    for start, end, call in zip(starts, ends, truth, strict=True):
        assert start.messages == [_sent(m) for m in call["received"]["messages"]]
        assert start.tools == (call["received"]["tools"] if RECORDINGS[name] else None)
        assert end.text == call["answered"]["content"]
        assert [(c.id, c.name, c.arguments) for c in end.tool_calls or ()] == [
            (c["id"], c["name"], c["arguments"]) for c in call["answered"]["tool_calls"]
        ]
    asked = [c for call in truth for c in call["answered"]["tool_calls"]]
    tool_starts = [e for e in events if e.kind == "tool_start"]
    assert [(e.tool_call_id, e.tool, e.tool_input) for e in tool_starts] == [
        (c["id"], c["name"], c["arguments"]) for c in asked
    ]
