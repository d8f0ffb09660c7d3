"""loopscope's engine: a from-scratch ReAct AgentExecutor that narrates every step as typed events."""

from .agent import ReActAgent, create_react_agent
from .agent_executor import STOPPED, AgentExecutor, OutputParsingError
from .calculator import llm_math_tool
from .clock import ManualClock, SystemClock
from .models import ChatModel, ModelReply, ScriptedModel, ScriptExhausted
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
    "AgentAction", "AgentExecutor", "AgentFinish", "AgentStep", "ChatModel", "ManualClock",
    "ModelReply", "OutputParserException", "OutputParsingError", "PromptTemplate", "REACT_PROMPT",
    "RateLimiter", "ReActAgent", "RetriesExhausted", "RetryPolicy", "RunContext", "STOPPED",
    "ScriptExhausted", "ScriptedModel", "SystemClock", "Tool", "ToolError", "ToolInputError",
    "TransientError", "create_react_agent", "llm_math_tool", "tool",
]
