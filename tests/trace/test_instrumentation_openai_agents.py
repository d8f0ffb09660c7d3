"""OpenInference's openai-agents instrumentation (an OpenAI Agents SDK agent on a chat-completions model,
two parallel tool calls) opens message-exact against what the local server received and answered."""

from __future__ import annotations

from tests.trace.instrumentation_truth import Compared, assert_message_exact


def test_openinference_openai_agents_opens_message_exact():
    # Its generation spans record no tools offered (only the tool spans of the calls made describe
    # their tool): the import shows none rather than guessing the agent's list.
    assert assert_message_exact("openinference-openai-agents", tools_recorded=False) == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )
