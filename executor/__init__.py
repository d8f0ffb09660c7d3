"""loopscope's engine: a from-scratch AgentExecutor (ReAct and tool-calling agents) that narrates every step as typed events."""

from .agent import ReActAgent, create_react_agent
from .agent_executor import STOPPED, AgentExecutor, OutputParsingError
from .calculator import llm_math_tool
from .chat_call import ToolCallingModel, reply_from_llm_end
from .circuit_breaker import (CircuitBreaker, CircuitBreakerModel, CircuitOpenError, breaker_for, reset_breakers,
                              with_breaker)
from .clock import ManualClock, SystemClock
from .context_budget import ContextBudget, approx_token_count
from .degradation import DegradingAgent, NoRuleMatched, Rule, RuleSet
from .fallbacks import FallbackModel, with_fallbacks
from .messages import ToolCall
from .model_list import ModelEntry, ModelList, create_model_chain, load_model_list
from .models import ChatModel, ModelRefused, ModelReply, ScriptedModel, ScriptExhausted
from .parser import OutputParserException
from .prompt import REACT_PROMPT, PromptTemplate
from .rate_limit import RateLimiter
from .retry import RetriesExhausted, RetryPolicy, TransientError
from .run_context import RunContext
from .schema import AgentAction, AgentFinish, AgentStep, ToolAgentAction
from .states import STATES, state_of
from .structured_output import extract_structured
from .tool_args import ToolInputError
from .tool_calling import ToolCallingAgent, create_tool_calling_agent
from .tool_decorator import tool
from .tools import Tool, ToolError, ToolTimeout

__version__ = "0.1.0"

__all__ = [
    "AgentAction", "AgentExecutor", "AgentFinish", "AgentStep", "ChatModel", "CircuitBreaker",
    "CircuitBreakerModel", "CircuitOpenError", "ContextBudget", "DegradingAgent", "FallbackModel",
    "ManualClock", "ModelEntry", "ModelList", "ModelRefused", "ModelReply", "NoRuleMatched",
    "OutputParserException", "OutputParsingError", "PromptTemplate", "REACT_PROMPT", "RateLimiter",
    "ReActAgent", "RetriesExhausted", "RetryPolicy", "Rule", "RuleSet", "RunContext", "STATES", "STOPPED",
    "ScriptExhausted", "ScriptedModel", "SystemClock", "Tool", "ToolAgentAction", "ToolCall",
    "ToolCallingAgent", "ToolCallingModel", "ToolError", "ToolInputError", "ToolTimeout", "TransientError",
    "approx_token_count", "breaker_for", "create_model_chain", "create_react_agent",
    "create_tool_calling_agent", "extract_structured", "llm_math_tool", "load_model_list", "reply_from_llm_end",
    "reset_breakers", "state_of", "tool", "with_breaker", "with_fallbacks",
]
