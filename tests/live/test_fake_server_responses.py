"""The fake server's /v1/responses route answers the real `openai` client in the Responses API's shape: the
scripted text and parallel tool calls as `output` items, the request recorded as it arrived."""

import pytest
from openai import OpenAI, RateLimitError
from openai.types.responses import Response, ResponseFunctionToolCall, ResponseOutputMessage

from tests.helpers.fake_openai_server import Status, ToolCalls, response_body

CALLS = ToolCalls(
    (("call_paris", "get_weather", '{"city": "Paris"}'), ("call_oslo", "get_weather", '{"city": "Oslo"}')),
    text="Let me check both cities.",
)
TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "The weather in a city now.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    "strict": True,
}


def test_the_openai_client_reads_the_scripted_calls_and_text(fake_openai):
    fake_openai.push(CALLS, "Paris is rainy; Oslo has snow.")
    client = OpenAI(base_url=fake_openai.base_url, api_key="not-a-key", max_retries=0)
    first = client.responses.create(
        model="fake-model", instructions="Use the tool.", input="Weather in Paris and Oslo?", tools=[TOOL]
    )
    assert isinstance(first, Response) and first.status == "completed" and first.model == "fake-model"
    message, *calls = first.output
    assert isinstance(message, ResponseOutputMessage) and first.output_text == "Let me check both cities."
    assert [(type(c), c.call_id, c.name, c.arguments) for c in calls] == [
        (ResponseFunctionToolCall, "call_paris", "get_weather", '{"city": "Paris"}'),
        (ResponseFunctionToolCall, "call_oslo", "get_weather", '{"city": "Oslo"}'),
    ]
    assert first.usage is not None and first.usage.total_tokens == first.usage.input_tokens + first.usage.output_tokens
    # Like the real API it echoes the instructions and tools (instrumentations read them from the reply).
    assert first.instructions == "Use the tool." and [t.name for t in first.tools] == ["get_weather"]

    # The next turn carries the calls and their outputs back as input items; the reply is text alone.
    items = [
        {"role": "user", "content": "Weather in Paris and Oslo?"},
        *({"type": "function_call", "call_id": c.call_id, "name": c.name, "arguments": c.arguments} for c in calls),
        {"type": "function_call_output", "call_id": "call_paris", "output": "rainy"},
        {"type": "function_call_output", "call_id": "call_oslo", "output": "snow"},
    ]
    second = client.responses.create(model="fake-model", input=items)
    assert second.output_text == "Paris is rainy; Oslo has snow."
    assert [item.type for item in second.output] == ["message"]

    assert [r.path for r in fake_openai.received] == ["/v1/responses", "/v1/responses"]
    assert fake_openai.received[0].body["instructions"] == "Use the tool."
    assert fake_openai.received[0].body["tools"] == [TOOL]
    assert fake_openai.received[1].body["input"] == items


def test_every_reply_parses_as_the_sdks_response_type_strictly():
    # The client builds its models leniently; the pydantic validation catches a missing required field.
    body = response_body({"model": "m", "tools": [TOOL]}, "", "prompt", 3, CALLS.calls)
    parsed = Response.model_validate(body)
    assert [item.type for item in parsed.output] == ["function_call", "function_call"]  # no empty message
    assert parsed.output_text == "" and parsed.id == "resp_fake_3"


def test_a_fault_still_answers_on_the_responses_route(fake_openai):
    fake_openai.push(Status(429, "slow down"))
    client = OpenAI(base_url=fake_openai.base_url, api_key="not-a-key", max_retries=0)
    with pytest.raises(RateLimitError, match="slow down"):
        client.responses.create(model="fake-model", input="hi")
