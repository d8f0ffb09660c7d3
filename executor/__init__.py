"""loopscope's engine: a from-scratch ReAct AgentExecutor that narrates every step as typed events."""

from .agent import ReActAgent, create_react_agent
from .agent_executor import STOPPED, AgentExecutor, OutputParsingError
from .calculator import llm_math_tool
from .circuit_breaker import (CircuitBreaker, CircuitBreakerModel, CircuitOpenError, breaker_for, reset_breakers,
                              with_breaker)
from .clock import ManualClock, SystemClock
from .degradation import DegradingAgent, NoRuleMatched, Rule, RuleSet
from .fallbacks import FallbackModel, with_fallbacks
from .model_list import ModelEntry, ModelList, create_model_chain, load_model_list
from .models import ChatModel, ModelRefused, ModelReply, ScriptedModel, ScriptExhausted
from .parser import OutputParserException
from .prompt import REACT_PROMPT, PromptTemplate
from .rate_limit import RateLimiter
from .retry import RetriesExhausted, RetryPolicy, TransientError
from .run_context import RunContext
from .schema import AgentAction, AgentFinish, AgentStep
from .tool_args import ToolInputError
from .tool_decorator import tool
from .tools import Tool, ToolError

__version__ = "0.1.0"

__all__ = [
    "AgentAction", "AgentExecutor", "AgentFinish", "AgentStep", "ChatModel", "CircuitBreaker",
    "CircuitBreakerModel", "CircuitOpenError", "DegradingAgent", "FallbackModel", "ManualClock", "ModelEntry",
    "ModelList", "ModelRefused", "ModelReply", "NoRuleMatched", "OutputParserException", "OutputParsingError",
    "PromptTemplate", "REACT_PROMPT", "RateLimiter", "ReActAgent", "RetriesExhausted", "RetryPolicy", "Rule",
    "RuleSet", "RunContext", "STOPPED", "ScriptExhausted", "ScriptedModel", "SystemClock", "Tool", "ToolError",
    "ToolInputError", "TransientError", "breaker_for", "create_model_chain", "create_react_agent",
    "llm_math_tool", "load_model_list", "reset_breakers", "tool", "with_breaker", "with_fallbacks",
]
