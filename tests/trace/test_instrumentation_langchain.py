"""OpenInference's LangChain instrumentation (a LangChain 1.x create_agent agent, two parallel tool calls)
opens message-exact against what the local server received and answered (tests/data/instrumentations)."""

from __future__ import annotations

from tests.trace.instrumentation_truth import Compared, assert_message_exact


def test_openinference_langchain_create_agent_opens_message_exact():
    # The tool spans record only the argument's value ("Paris") and a ToolMessage dump as the output:
    # the import shows the model's arguments and the message's content, as the server saw them.
    assert assert_message_exact("openinference-langchain") == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )
