"""OpenInference's openai-agents instrumentation (an OpenAI Agents SDK agent on a chat-completions model, and on
its default Responses API model; two parallel tool calls) opens message-exact against what the local server
received and answered."""

from __future__ import annotations

import json

from tests.trace.instrumentation_truth import DATA, Compared, assert_message_exact

NAMES = ("openinference-openai-agents", "openinference-openai-agents-responses")


def test_openinference_openai_agents_opens_message_exact():
    # Its generation spans record no tools offered (only the tool spans of the calls made describe
    # their tool): the import shows none rather than guessing the agent's list.
    assert assert_message_exact("openinference-openai-agents", tools_recorded=False) == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )


def test_openinference_openai_agents_on_the_responses_api_opens_message_exact():
    # The SDK's default model: POST /v1/responses. The server received `instructions` and `input` items;
    # the ground truth writes them as the chat messages they stand for, the assistant's text and its two
    # function calls one message (as the SDK's own chat converter joins them). Its response spans carry
    # the tools offered (read from the reply, which echoes them).
    assert assert_message_exact("openinference-openai-agents-responses") == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )


def test_the_responses_truth_is_what_the_sdk_sends_on_the_chat_path():
    # The Responses truth is a translation of the items the server received (record_agents.chat_messages);
    # the same agent on a chat-completions model had the SDK's own converter write those messages: the
    # two servers received the same conversation and tools, so the translation invents nothing.
    chat, responses = (json.loads((DATA / f"{n}.truth.json").read_text()) for n in NAMES)
    assert [c["received"]["messages"] for c in responses] == [c["received"]["messages"] for c in chat]
    assert [c["received"]["tools"] for c in responses] == [c["received"]["tools"] for c in chat]
    assert [c["answered"] for c in responses] == [c["answered"] for c in chat]
    assert [item["type"] for item in responses[1]["received"]["as_sent"]["input"][1:]] == [
        "message",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
