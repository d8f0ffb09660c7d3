"""loopscope's engine: a from-scratch AgentExecutor (ReAct and tool-calling agents) that narrates every step as typed events."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # editors and mypy follow `from executor import X` here; at run time __getattr__ imports it
    from .agent_executor import STOPPED, AgentExecutor, OutputParsingError
    from .agents.context_budget import ContextBudget, approx_token_count
    from .agents.parser import OutputParserException
    from .agents.prompt import REACT_PROMPT, PromptTemplate
    from .agents.react import ReActAgent, create_react_agent
    from .agents.structured_output import extract_structured
    from .agents.tool_calling import ToolCallingAgent, create_tool_calling_agent
    from .call_gate import ToolCallGate
    from .clock import ManualClock, SystemClock
    from .models.chat_call import reply_from_llm_end
    from .models.chat_model import (
        ChatModel,
        ModelHooks,
        ModelRefused,
        ModelReply,
        ScriptedModel,
        ScriptExhausted,
        ToolCallingModel,
    )
    from .models.messages import ToolCall
    from .models.model_list import ModelEntry, ModelList, create_model_chain, load_model_list
    from .recovery.circuit_breaker import (
        CircuitBreaker,
        CircuitBreakerModel,
        CircuitOpenError,
        breaker_for,
        reset_breakers,
        with_breaker,
    )
    from .recovery.degradation import DegradingAgent, NoRuleMatched, Rule, RuleSet
    from .recovery.fallbacks import FallbackModel, with_fallbacks
    from .recovery.rate_limit import RateLimiter
    from .recovery.retry import RetriesExhausted, RetryPolicy, TransientError
    from .run_context import RunContext
    from .schema import AgentAction, AgentFinish, AgentStep, ToolAgentAction
    from .states import STATES, state_of
    from .tools.args import ToolInputError
    from .tools.calculator import llm_math_tool
    from .tools.decorator import tool
    from .tools.mcp import mcp_tools
    from .tools.tool import Tool, ToolError, ToolTimeout

# Each public name and the module it lives in. A name is imported on first use, so `import executor`
# (and every `from executor.x import y`, which runs this file first) loads none of the engine:
# `loopscope --help` reads the version here, and reading a trace never loads numexpr, the providers
# or the loop itself (what that saves: docs/performance.md, "Speed tricks: kept or removed").
_PUBLIC = {
    "ReActAgent": "agents.react",
    "create_react_agent": "agents.react",
    "STOPPED": "agent_executor",
    "AgentExecutor": "agent_executor",
    "OutputParsingError": "agent_executor",
    "llm_math_tool": "tools.calculator",
    "reply_from_llm_end": "models.chat_call",
    "CircuitBreaker": "recovery.circuit_breaker",
    "CircuitBreakerModel": "recovery.circuit_breaker",
    "CircuitOpenError": "recovery.circuit_breaker",
    "breaker_for": "recovery.circuit_breaker",
    "reset_breakers": "recovery.circuit_breaker",
    "with_breaker": "recovery.circuit_breaker",
    "ManualClock": "clock",
    "SystemClock": "clock",
    "ContextBudget": "agents.context_budget",
    "approx_token_count": "agents.context_budget",
    "DegradingAgent": "recovery.degradation",
    "NoRuleMatched": "recovery.degradation",
    "Rule": "recovery.degradation",
    "RuleSet": "recovery.degradation",
    "FallbackModel": "recovery.fallbacks",
    "with_fallbacks": "recovery.fallbacks",
    "ToolCall": "models.messages",
    "ModelEntry": "models.model_list",
    "ModelList": "models.model_list",
    "create_model_chain": "models.model_list",
    "load_model_list": "models.model_list",
    "ChatModel": "models.chat_model",
    "ModelHooks": "models.chat_model",
    "ToolCallingModel": "models.chat_model",
    "ModelRefused": "models.chat_model",
    "ModelReply": "models.chat_model",
    "ScriptedModel": "models.chat_model",
    "ScriptExhausted": "models.chat_model",
    "OutputParserException": "agents.parser",
    "REACT_PROMPT": "agents.prompt",
    "PromptTemplate": "agents.prompt",
    "RateLimiter": "recovery.rate_limit",
    "RetriesExhausted": "recovery.retry",
    "RetryPolicy": "recovery.retry",
    "TransientError": "recovery.retry",
    "RunContext": "run_context",
    "ToolCallGate": "call_gate",
    "AgentAction": "schema",
    "AgentFinish": "schema",
    "AgentStep": "schema",
    "ToolAgentAction": "schema",
    "STATES": "states",
    "state_of": "states",
    "extract_structured": "agents.structured_output",
    "ToolInputError": "tools.args",
    "ToolCallingAgent": "agents.tool_calling",
    "create_tool_calling_agent": "agents.tool_calling",
    "tool": "tools.decorator",
    "mcp_tools": "tools.mcp",
    "Tool": "tools.tool",
    "ToolError": "tools.tool",
    "ToolTimeout": "tools.tool",
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
