"""loopscope's engine: a from-scratch AgentExecutor (ReAct and tool-calling agents) that narrates every step as typed events."""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Each public name and the module it lives in. A name is imported on first use, so `import executor`
# (and every `from executor.x import y`, which runs this file first) costs nothing: reading a trace
# never loads numexpr, the providers or the loop itself.
_PUBLIC = {
    "ReActAgent": "agent", "create_react_agent": "agent",
    "STOPPED": "agent_executor", "AgentExecutor": "agent_executor", "OutputParsingError": "agent_executor",
    "llm_math_tool": "calculator",
    "ToolCallingModel": "chat_call", "reply_from_llm_end": "chat_call",
    "CircuitBreaker": "circuit_breaker", "CircuitBreakerModel": "circuit_breaker",
    "CircuitOpenError": "circuit_breaker", "breaker_for": "circuit_breaker", "reset_breakers": "circuit_breaker",
    "with_breaker": "circuit_breaker",
    "ManualClock": "clock", "SystemClock": "clock",
    "ContextBudget": "context_budget", "approx_token_count": "context_budget",
    "DegradingAgent": "degradation", "NoRuleMatched": "degradation", "Rule": "degradation", "RuleSet": "degradation",
    "FallbackModel": "fallbacks", "with_fallbacks": "fallbacks",
    "ToolCall": "messages",
    "ModelEntry": "model_list", "ModelList": "model_list", "create_model_chain": "model_list",
    "load_model_list": "model_list",
    "ChatModel": "models", "ModelRefused": "models", "ModelReply": "models", "ScriptedModel": "models",
    "ScriptExhausted": "models",
    "OutputParserException": "parser",
    "REACT_PROMPT": "prompt", "PromptTemplate": "prompt",
    "RateLimiter": "rate_limit",
    "RetriesExhausted": "retry", "RetryPolicy": "retry", "TransientError": "retry",
    "RunContext": "run_context",
    "AgentAction": "schema", "AgentFinish": "schema", "AgentStep": "schema", "ToolAgentAction": "schema",
    "STATES": "states", "state_of": "states",
    "extract_structured": "structured_output",
    "ToolInputError": "tool_args",
    "ToolCallingAgent": "tool_calling", "create_tool_calling_agent": "tool_calling",
    "tool": "tool_decorator",
    "Tool": "tools", "ToolError": "tools", "ToolTimeout": "tools",
}

__all__ = sorted(_PUBLIC)  # `from executor import *` imports each of them (through __getattr__)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'executor' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])
