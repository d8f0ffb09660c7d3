"""The attribute names an exported span carries beyond tracer.trace.otel_mapping's: OpenInference and GenAI.

Written out, as otel_mapping's are, so that nothing imports an optional package to name an attribute;
tests/report/test_otlp_conventions.py checks every one against openinference-semantic-conventions and
opentelemetry-semantic-conventions (the GenAI names).
"""

from __future__ import annotations

# -- OpenInference (Phoenix, Arize): flattened lists, `prefix.N.field` -----------------------------
LLM_TOOLS = "llm.tools"
TOOL_JSON_SCHEMA = "tool.json_schema"
LLM_FINISH_REASON = "llm.finish_reason"
LLM_REQUEST_MODEL_NAME = "llm.request.model_name"
LLM_RESPONSE_MODEL_NAME = "llm.response.model_name"
MESSAGE_NAME = "message.name"
MESSAGE_TOOL_CALLS = "message.tool_calls"
MESSAGE_TOOL_CALL_ID = "message.tool_call_id"
MESSAGE_CONTENTS = "message.contents"
MESSAGE_CONTENT_TYPE = "message_content.type"
MESSAGE_CONTENT_TEXT = "message_content.text"
TOOL_CALL_ID = "tool_call.id"
TOOL_CALL_FUNCTION_NAME = "tool_call.function.name"
TOOL_CALL_FUNCTION_ARGUMENTS = "tool_call.function.arguments"
TOOL_DESCRIPTION = "tool.description"
AGENT_NAME = "agent.name"

# -- OpenTelemetry GenAI semantic conventions (Langfuse, Datadog, Grafana, any GenAI-aware backend) --
GEN_AI_OPERATION_NAME = "gen_ai.operation.name"
CHAT, EXECUTE_TOOL, INVOKE_AGENT = "chat", "execute_tool", "invoke_agent"
GEN_AI_REQUEST_MODEL = "gen_ai.request.model"
GEN_AI_RESPONSE_MODEL = "gen_ai.response.model"
GEN_AI_REQUEST_STOP_SEQUENCES = "gen_ai.request.stop_sequences"
GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons"
GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages"
GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages"
GEN_AI_SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions"
GEN_AI_TOOL_DEFINITIONS = "gen_ai.tool.definitions"
GEN_AI_TOOL_NAME = "gen_ai.tool.name"
GEN_AI_TOOL_DESCRIPTION = "gen_ai.tool.description"
GEN_AI_TOOL_TYPE = "gen_ai.tool.type"
GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id"
GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments"
GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result"
GEN_AI_AGENT_NAME = "gen_ai.agent.name"
GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id"

# -- OpenTelemetry's general conventions -----------------------------------------------------------
ERROR_TYPE = "error.type"
EXCEPTION_EVENT, EXCEPTION_TYPE, EXCEPTION_MESSAGE = "exception", "exception.type", "exception.message"

# -- loopscope's own -------------------------------------------------------------------------------
RECORDED_RUN_ID = "loopscope.recorded_run_id"
"""The run id the events carry (a scenario's name, or what run_id_factory made), kept beside the
export's own unique `loopscope.run_id`."""
