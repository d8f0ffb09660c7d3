"""pydantic-ai's own instrumentation, both forms (GenAI `gen_ai.input.messages`/`gen_ai.output.messages`,
and version 1's events), opens message-exact against what the local server received and answered."""

from __future__ import annotations

import pytest

from tests.trace.instrumentation_truth import Compared, assert_message_exact


@pytest.mark.parametrize("name", ["pydantic-ai-genai", "pydantic-ai-events"])
def test_pydantic_ai_instrumentation_opens_message_exact(name):
    assert assert_message_exact(name) == Compared(model_calls=2, messages=7, tool_calls=2, tool_results=2)
