"""The Vercel AI SDK's telemetry spans (ai.generateText.doGenerate, ai.toolCall) imported with their tool
calls: the v5 message parts ({type: tool-call, toolCallId, toolName, input}, tool-result with output
{type, value}) as the SDK's own snapshots (vercel/ai generate-text.test.ts.snap) show them, and v4's
`args` / `result`."""

from __future__ import annotations

import json

import pytest

from tests.trace.test_import_conventions import span_file
from tracer.trace.importers import convert

QUESTION = [{"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]}]
V5_CALL = {"type": "tool-call", "toolCallId": "call-1", "toolName": "weather", "input": {"city": "Paris"}}
V5_RESULT = {
    "type": "tool-result",
    "toolCallId": "call-1",
    "toolName": "weather",
    "output": {"type": "text", "value": "rainy, 14°C"},
}
V4_CALL = {"type": "tool-call", "toolCallId": "call-1", "toolName": "weather", "args": {"city": "Paris"}}
V4_RESULT = {"type": "tool-result", "toolCallId": "call-1", "toolName": "weather", "result": "rainy, 14°C"}


def _run(tmp_path, call: dict, result: dict, reply_key: str):
    first = {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.id": "gpt-4o-mini",
        "ai.prompt.messages": json.dumps(QUESTION),
        "ai.response.text": "",
        "ai.response.toolCalls": json.dumps(
            [{"toolCallId": "call-1", "toolName": "weather", reply_key: json.dumps({"city": "Paris"})}]
        ),
        "ai.response.finishReason": "tool-calls",
        "ai.usage.inputTokens": 40,
        "ai.usage.outputTokens": 9,
    }
    tool = {
        "ai.operationId": "ai.toolCall",
        "ai.toolCall.name": "weather",
        "ai.toolCall.id": "call-1",
        f"ai.toolCall.{reply_key}": json.dumps({"city": "Paris"}),
        f"ai.toolCall.{'output' if reply_key == 'input' else 'result'}": json.dumps("rainy, 14°C"),
    }
    history = QUESTION + [{"role": "assistant", "content": [call]}, {"role": "tool", "content": [result]}]
    second = {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.id": "gpt-4o-mini",
        "ai.prompt.messages": json.dumps(history),
        "ai.response.text": "It is rainy in Paris, 14°C.",
        "ai.response.finishReason": "stop",
    }
    return convert(span_file(tmp_path, first, tool, second)).events


@pytest.mark.parametrize(
    ("call", "result", "reply_key"), [(V5_CALL, V5_RESULT, "input"), (V4_CALL, V4_RESULT, "args")], ids=["v5", "v4"]
)
def test_a_vercel_ai_sdk_tool_call_keeps_its_id_name_input_and_result(tmp_path, call, result, reply_key):
    events = _run(tmp_path, call, result, reply_key)
    starts = [e for e in events if e.kind == "llm_start"]
    ends = [e for e in events if e.kind == "llm_end"]
    assert [e.model for e in starts] == ["gpt-4o-mini", "gpt-4o-mini"]
    assert starts[0].messages == [{"role": "user", "content": "Weather in Paris?"}]
    assert [(c.id, c.name, json.loads(c.arguments)) for c in ends[0].tool_calls] == [
        ("call-1", "weather", {"city": "Paris"})
    ]
    assert ends[0].usage == {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49}
    tool_start = next(e for e in events if e.kind == "tool_start")
    assert (tool_start.tool, tool_start.tool_call_id, json.loads(tool_start.tool_input)) == (
        "weather",
        "call-1",
        {"city": "Paris"},
    )
    assert next(e for e in events if e.kind == "tool_end").observation == "rainy, 14°C"
    assistant, answered = starts[1].messages[1:]
    assert assistant["tool_calls"][0]["id"] == answered["tool_call_id"] == "call-1"
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"city": "Paris"}
    assert answered == {"role": "tool", "tool_call_id": "call-1", "content": "rainy, 14°C"}
    assert ends[1].text == "It is rainy in Paris, 14°C." and ends[1].tool_calls is None
    assert [e.iteration for e in starts] == [1, 2]
