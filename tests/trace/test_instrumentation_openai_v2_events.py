"""opentelemetry-instrumentation-openai-v2 with messages captured only in its events (EVENT_ONLY: each call's
gen_ai.client.inference.operation.details log record) opens message-exact against what the local server
received and answered (tests/data/instrumentations)."""

from __future__ import annotations

from tests.trace.instrumentation_truth import Compared, assert_message_exact


def test_openai_v2_event_only_capture_opens_message_exact():
    # Its spans hold no messages: each model call's come from the log record naming its span. This
    # version (2.4b0) records no tool definitions anywhere: the import shows none.
    assert assert_message_exact("otel-openai-v2-events", tools_recorded=False) == Compared(
        model_calls=2, messages=7, tool_calls=2, tool_results=2
    )
