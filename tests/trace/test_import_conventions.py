"""OpenInference's and the OpenTelemetry GenAI convention's span fixtures (tests/data/openinference) and
LangSmith runs (a real SDK batch, and an agent run tree in LangSmith's documented run schema) imported
with message-level fidelity: messages with their tool calls and results, replies, finish reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracer.trace.importers import convert

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = 1_700_000_000_000_000_000  # ns


def _otlp_value(value) -> dict:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, list):
        return {"arrayValue": {"values": [_otlp_value(v) for v in value]}}
    return {"stringValue": value}


def span_file(tmp_path, *attribute_sets: dict, name: str = "span.json") -> Path:
    """The fixtures' attributes on OTLP JSON spans under one agent span, 100 ms apart."""
    spans = [
        {
            "traceId": "ab" * 16,
            "spanId": "00000000000000a0",
            "name": "agent",
            "startTimeUnixNano": str(T0),
            "endTimeUnixNano": str(T0 + 10**9),
            "attributes": [{"key": "openinference.span.kind", "value": {"stringValue": "AGENT"}}],
        }
    ]
    for index, attrs in enumerate(attribute_sets, start=1):
        spans.append(
            {
                "traceId": "ab" * 16,
                "spanId": f"{index:016x}",
                "parentSpanId": "00000000000000a0",
                "name": f"span-{index}",
                "startTimeUnixNano": str(T0 + index * 10**8),
                "endTimeUnixNano": str(T0 + index * 10**8 + 5 * 10**7),
                "attributes": [{"key": k, "value": _otlp_value(v)} for k, v in attrs.items()],
            }
        )
    path = tmp_path / name
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    return path


def fixture(name: str) -> dict:
    return json.loads((DATA / "openinference" / name).read_text())


PARIS = [
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": "Absolutely! Let me check the weather for you.",
        "tool_calls": [
            {"id": "1234", "type": "function", "function": {"name": "get_weather", "arguments": '{"location":"Paris"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "1234", "content": "rainy, 57°F"},
]
REPLY = "The weather in Paris is currently rainy with a temperature of 57°F."


@pytest.mark.parametrize(
    "name",
    [
        "openinference_client_span_tool_calls.json",
        "openinference_client_span_input_output_only.json",
        "otel_genai_client_span_tool_calls.json",
        "otel_genai_deprecated_client_span_tool_calls.json",
    ],
)
def test_a_model_call_in_each_convention_keeps_its_messages_tool_calls_and_reply(tmp_path, name):
    events = convert(span_file(tmp_path, fixture(name))).events
    start, end = (next(e for e in events if e.kind == kind) for kind in ("llm_start", "llm_end"))
    arguments = [json.loads(m["tool_calls"][0]["function"]["arguments"]) for m in start.messages if "tool_calls" in m]
    assert arguments == [{"location": "Paris"}]  # OpenInference keeps the model's text, GenAI parts an object
    for message in start.messages:
        for call in message.get("tool_calls", ()):
            call["function"]["arguments"] = '{"location":"Paris"}'
    assert start.messages == PARIS
    assert start.prompt.startswith("[user]\nWeather in Paris?\n\n[assistant]\n")
    assert end.text == REPLY and end.finish_reason is None  # "stop" is the plain ending, not kept
    assert end.usage is None or end.usage["prompt_tokens"] == 97


def test_a_genai_tool_execution_span_is_a_tool_call_with_its_id_input_and_output(tmp_path):
    events = convert(span_file(tmp_path, fixture("otel_genai_tool_execution_span.json"))).events
    start, end = (next(e for e in events if e.kind == kind) for kind in ("tool_start", "tool_end"))
    assert (start.tool, start.tool_call_id, end.tool_call_id) == ("get_weather", "1234", "1234")
    assert json.loads(start.tool_input) == {"city": "New York"} and json.loads(end.observation)["status"] == "success"


def test_a_reply_cut_at_its_length_says_so(tmp_path):
    attrs = dict(fixture("otel_genai_client_span_tool_calls.json"), **{"gen_ai.response.finish_reasons": ["length"]})
    attrs["gen_ai.output.messages"] = json.dumps(
        [{"role": "assistant", "parts": [{"type": "text", "content": "The wea"}]}]
    )
    end = next(e for e in convert(span_file(tmp_path, attrs)).events if e.kind == "llm_end")
    assert (end.text, end.finish_reason) == ("The wea", "length")


def test_openinference_tools_offered_are_tools(tmp_path):
    schema = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    attrs = dict(
        fixture("openinference_client_span_tool_calls.json"), **{"llm.tools.0.tool.json_schema": json.dumps(schema)}
    )
    start = next(e for e in convert(span_file(tmp_path, attrs)).events if e.kind == "llm_start")
    assert start.tools == [schema] and all(m["role"] != "tool" or "tool_call_id" in m for m in start.messages)


def test_a_real_langsmith_sdk_batch_post_then_patch(tmp_path):
    """langsmith-sdk's own test data: the JS SDK's wrapOpenAI run, posted then patched (by dotted_order)."""
    events = convert(DATA / "langsmith" / "langsmith_js_wrap_openai_default.json").events
    start, end = (next(e for e in events if e.kind == kind) for kind in ("llm_start", "llm_end"))
    assert start.messages == [{"role": "user", "content": "howdy"}] and start.model == "gpt-4o-mini"
    assert end.text == "Howdy! How can I assist you today?" and end.duration == 1.115
    assert end.usage == {"prompt_tokens": 9, "completion_tokens": 9, "total_tokens": 18}


def test_a_langsmith_agent_run_tree_with_langchain_messages_and_a_tool_call():
    events = convert(DATA / "langsmith" / "agent_run_tree.json").events
    starts = [e for e in events if e.kind == "llm_start"]
    assert [m["role"] for m in starts[0].messages] == ["system", "user"]
    assert [m["role"] for m in starts[1].messages] == ["system", "user", "assistant", "tool"]
    assert starts[1].messages[2]["tool_calls"][0]["id"] == starts[1].messages[3]["tool_call_id"] == "call_rose"
    assert [t["function"]["name"] for t in starts[0].tools] == ["Search"]
    first_reply = next(e for e in events if e.kind == "llm_end")
    assert [(c.name, c.id, json.loads(c.arguments)) for c in first_reply.tool_calls] == [
        ("Search", "call_rose", {"query": "rose price"})
    ]
    tool_start, tool_end = (next(e for e in events if e.kind == kind) for kind in ("tool_start", "tool_end"))
    assert (tool_start.tool, tool_start.tool_call_id, tool_end.observation) == (
        "Search",
        "call_rose",
        "25 yuan a bunch",
    )
    assert [e.iteration for e in events if e.kind in ("llm_start", "tool_start")] == [1, 1, 2]
    assert events[0].origin["tags"] == ["rose-agent"] and events[-1].origin["scores"][0]["name"] == "correctness"
    assert events[-1].outputs == {"output": "Roses cost 26.25 yuan with the markup."}
