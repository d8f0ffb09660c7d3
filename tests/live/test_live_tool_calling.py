"""The tool-calling agent over real HTTP: the `tools` request, concurrent calls, `role: tool` results by id."""

import json
import threading

import pytest

from executor import AgentExecutor, ManualClock, Tool, create_tool_calling_agent
from executor.models.config import load_model_config
from executor.models.providers import MalformedReply, create_model
from tests.helpers.fake_openai_server import ToolCalls

WEATHER_CALLS = ToolCalls(
    (("call_paris", "weather", '{"tool_input": "Paris"}'), ("call_rome", "weather", '{"tool_input": "Rome"}')),
    text="Checking both.",
)


def live_model():
    config = load_model_config(model="openai:fake-model", timeout=5.0)
    return create_model(config.model, config)


def weather_run(tools, **settings):
    agent = create_tool_calling_agent(live_model(), tools, "Answer with the tools.")
    executor = AgentExecutor(agent, tools, clock=ManualClock(tick=0.001), **settings)
    events = []
    return executor.invoke({"input": "Weather in Paris and Rome?"}, [events.append]), events


def test_the_tools_request_the_calls_and_the_tool_messages_with_their_ids(live_env):
    # Both calls must be in flight at once to get past it; 60 s is a limit for a broken run, not a speed.
    barrier = threading.Barrier(2, timeout=60)

    def weather(city):
        barrier.wait()
        return f"{city}: 21C"

    live_env.push(WEATHER_CALLS, "Paris and Rome are both 21C.")
    result, events = weather_run([Tool("weather", "Today's weather in a city", weather)])
    assert result["output"] == "Paris and Rome are both 21C."
    first, second = (request.body for request in live_env.received)
    assert first["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "Today's weather in a city",
                # the tool's own args_schema (issue 10: every Tool has one; a plain tool's is one string)
                "parameters": {
                    "properties": {"tool_input": {"title": "Tool Input", "type": "string"}},
                    "required": ["tool_input"],
                    "title": "WeatherArgs",
                    "type": "object",
                },
            },
        }
    ]
    assert first["tool_choice"] == "auto" and first["parallel_tool_calls"] is True and "stop" not in first
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool", "tool"]
    assistant = second["messages"][2]
    assert assistant["content"] == "Checking both."
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_paris", "call_rome"]
    assert [(m["tool_call_id"], m["content"]) for m in second["messages"][3:]] == [
        ("call_paris", "Paris: 21C"),
        ("call_rome", "Rome: 21C"),
    ]
    replies = [e for e in events if e.kind == "llm_end"]
    assert [c.id for c in replies[0].tool_calls] == ["call_paris", "call_rome"] and replies[1].tool_calls is None
    assert replies[0].usage["total_tokens"] > 0  # the endpoint's usage is recorded
    starts = [e for e in events if e.kind == "llm_start"]
    assert [s.messages for s in starts] == [r.body["messages"] for r in live_env.received]


def test_a_bad_argument_from_the_endpoint_becomes_a_tool_message_and_the_run_goes_on(live_env):
    live_env.push(ToolCalls((("c1", "weather", "{not json"),)), "Sorry, retried.")
    result, _events = weather_run([Tool("weather", "Weather", lambda city: "never")])
    assert result["output"] == "Sorry, retried."
    tool_message = live_env.received[1].body["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "c1"
    assert tool_message["content"].startswith("Error: the arguments for weather are not valid JSON")


def test_a_tool_call_without_an_id_is_a_malformed_reply(live_env):
    live_env.push(ToolCalls((("", "weather", "{}"),)))
    with pytest.raises(MalformedReply, match="has no id or function name"):
        weather_run([Tool("weather", "Weather", str)], retry_policy=None)  # a live model retries it by default


def test_a_request_without_tools_sends_no_tool_choice(live_env):
    live_env.push("plain")
    reply = live_model().generate_messages([{"role": "user", "content": "hi"}], tools=[], tool_choice="none")
    assert reply.text == "plain" and reply.tool_calls == ()
    body = live_env.received[0].body
    assert "tools" not in body and "tool_choice" not in body and "parallel_tool_calls" not in body
    assert json.loads(json.dumps(body["messages"])) == [{"role": "user", "content": "hi"}]
