"""Microsoft.Extensions.AI's OpenTelemetryChatClient (C#) spans: GenAI-convention parts as its serializer
writes them (dotnet/extensions OpenTelemetryChatClient.SerializeChatMessages), including a Gemini reply
whose TextReasoningContent has no text, only protectedData (a thought signature), which it writes as a
part typed by the .NET class name."""

from __future__ import annotations

import json

from tests.trace.test_import_conventions import span_file
from tracer.trace.importers import convert

SIGNATURE = {"text": "", "protectedData": "CiQBjz1rX0" + "A" * 200}
BLOB = {"type": "Microsoft.Extensions.AI.TextReasoningContent", "content": SIGNATURE}
CALL = {"type": "tool_call", "id": "call_7", "name": "GetWeather", "arguments": {"city": "Oslo"}}
RESULT = {"type": "tool_call_response", "id": "call_7", "response": "Snow, -3°C"}
QUESTION = {"role": "user", "parts": [{"type": "text", "content": "Weather in Oslo?"}]}


def _span(inputs: list, outputs: list) -> dict:
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "gcp.gemini",
        "gen_ai.request.model": "gemini-2.5-flash",
        "gen_ai.input.messages": json.dumps(inputs),
        "gen_ai.output.messages": json.dumps(outputs),
    }


def test_a_gemini_reply_through_microsoft_extensions_ai_keeps_its_tool_message_and_hides_no_blob(tmp_path):
    first = _span([QUESTION], [{"role": "assistant", "parts": [BLOB, CALL], "finish_reason": "tool_call"}])
    answer = {"type": "reasoning", "content": "The tool said snow."}
    second = _span(
        [QUESTION, {"role": "assistant", "parts": [BLOB, CALL]}, {"role": "tool", "parts": [RESULT]}],
        [{"role": "assistant", "parts": [answer, {"type": "text", "content": "It snows in Oslo, -3°C."}]}],
    )
    events = convert(span_file(tmp_path, first, second)).events
    starts = [e for e in events if e.kind == "llm_start"]
    ends = [e for e in events if e.kind == "llm_end"]
    assert ends[0].text == ""  # the protected reasoning is no reply text
    assert [(c.id, c.name, json.loads(c.arguments)) for c in ends[0].tool_calls] == [
        ("call_7", "GetWeather", {"city": "Oslo"})
    ]
    assert ends[1].text == "It snows in Oslo, -3°C."
    assert starts[1].messages[1:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_7",
                    "type": "function",
                    "function": {"name": "GetWeather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_7", "content": "Snow, -3°C"},
    ]
    assert "protectedData" not in starts[1].prompt and all("protectedData" not in e.text for e in ends)
