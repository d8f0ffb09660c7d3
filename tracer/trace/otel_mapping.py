"""How loopscope events map onto OpenTelemetry spans (OpenInference conventions), in one place.

Both directions use these names: tracer/report/otlp/export.py turns a trace into spans (`loopscope export
--otlp`, OTelListener), and an OTLP importer turns spans back into events. The strings are the
OpenInference semantic conventions' (tests check them against openinference-semantic-conventions),
written out here so the trace format needs no optional package.
"""

from __future__ import annotations

# -- OpenInference attribute names -------------------------------------------------------------
SPAN_KIND = "openinference.span.kind"
INPUT_VALUE, INPUT_MIME_TYPE = "input.value", "input.mime_type"
OUTPUT_VALUE, OUTPUT_MIME_TYPE = "output.value", "output.mime_type"
LLM_MODEL_NAME = "llm.model_name"
LLM_INVOCATION_PARAMETERS = "llm.invocation_parameters"
LLM_INPUT_MESSAGES, LLM_OUTPUT_MESSAGES = "llm.input_messages", "llm.output_messages"
MESSAGE_ROLE, MESSAGE_CONTENT = "message.role", "message.content"
LLM_TOKEN_COUNT_PROMPT = "llm.token_count.prompt"
LLM_TOKEN_COUNT_COMPLETION = "llm.token_count.completion"
LLM_TOKEN_COUNT_TOTAL = "llm.token_count.total"
TOOL_NAME = "tool.name"
METADATA = "metadata"
JSON_MIME, TEXT_MIME = "application/json", "text/plain"

# OpenInference span kinds used here.
AGENT, CHAIN, LLM, TOOL = "AGENT", "CHAIN", "LLM", "TOOL"


def message_attribute(prefix: str, index: int, field: str) -> str:
    """`llm.input_messages.0.message.content`: OpenInference flattens message lists this way."""
    return f"{prefix}.{index}.{field}"


# -- loopscope's own attributes (what an importer needs to rebuild the events exactly) -----------
EVENT_JSON = "loopscope.event"
"""On every span event: the loopscope event as JSON (redacted), so an import is lossless."""
RUN_ID = "loopscope.run_id"
ITERATION = "loopscope.iteration"
SCENARIO = "loopscope.scenario"
AGENT_SPEC = "loopscope.agent"
"""On the root span: the trace header's agent (MODULE:FUNCTION), so an import names the run as it was named."""
SCOPE_NAME = "loopscope"
SERVICE_NAME = "loopscope"

# -- which events open and close which span --------------------------------------------------------
# Span names: the root is the executor run, a round is one _take_next_step, then model and tool calls.
ROOT_SPAN_NAME = "AgentExecutor"
ROUND_SPAN_NAME = "_take_next_step"
OPENS = {"chain_start": AGENT, "llm_start": LLM, "tool_start": TOOL}
CLOSES = {"chain_end": AGENT, "chain_error": AGENT, "llm_end": LLM, "tool_end": TOOL, "tool_error": TOOL}
# Everything else becomes a span event (named by its kind) on the innermost open span, e.g.
# "retry" and "rate_limit_wait" on the model call they delayed, "finish_check" on the round.
ERROR_KINDS = frozenset({"chain_error", "tool_error"})
