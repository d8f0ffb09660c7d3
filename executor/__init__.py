"""loopscope's engine: a from-scratch AgentExecutor (ReAct and tool-calling agents) that narrates every step as typed events."""

from .agent import ReActAgent, create_react_agent
from .agent_executor import STOPPED, AgentExecutor, OutputParsingError
from .calculator import llm_math_tool
from .chat_call import ToolCallingModel, reply_from_llm_end
from .context_budget import ContextBudget, approx_token_count
from .clock import ManualClock, SystemClock
from .messages import ToolCall
from .models import ChatModel, ModelReply, ScriptedModel, ScriptExhausted
from .parser import OutputParserException
from .prompt import REACT_PROMPT, PromptTemplate
from .rate_limit import RateLimiter
from .retry import RetriesExhausted, RetryPolicy, TransientError
from .run_context import RunContext
from .schema import AgentAction, AgentFinish, AgentStep, ToolAgentAction
from .states import STATES, state_of
from .structured_output import extract_structured
from .tool_calling import ToolCallingAgent, create_tool_calling_agent
from .tools import Tool, ToolError

__version__ = "0.1.0"

__all__ = [
    "AgentAction", "AgentExecutor", "AgentFinish", "AgentStep", "ChatModel", "ContextBudget", "ManualClock",
    "ModelReply", "OutputParserException", "OutputParsingError", "PromptTemplate", "REACT_PROMPT",
    "RateLimiter", "ReActAgent", "RetriesExhausted", "RetryPolicy", "RunContext", "STATES", "STOPPED",
    "ScriptExhausted", "ScriptedModel", "SystemClock", "Tool", "ToolAgentAction", "ToolCall",
    "ToolCallingAgent", "ToolCallingModel", "ToolError", "TransientError", "approx_token_count",
    "create_react_agent", "create_tool_calling_agent", "extract_structured", "llm_math_tool",
    "reply_from_llm_end", "state_of",
]
