"""The tool-calling agent: one plan() = send the message history with the tools, read the reply's tool calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from pydantic import BaseModel

from ..awaiting import Narrated
from ..models.chat_call import call_chat_model
from ..models.chat_model import ChatModel, ModelReply, ToolCallingModel
from ..models.messages import (
    Message,
    ToolCall,
    assistant_message,
    format_to_tool_messages,
    system_message,
    user_message,
)
from ..run_context import RunContext
from ..schema import AgentFinish, AgentStep, ToolAgentAction
from ..tools.schema import check_function_name, tool_spec
from ..tools.tool import Tool
from .context_budget import ContextBudget
from .structured_output import parse_structured_answer


class ToolCallingAgent:
    """What create_tool_calling_agent builds. Looping, running the calls and feeding back
    their results stay the executor's job, exactly as with the ReAct agent."""

    return_values = ["output"]
    stop: list[str] = []  # the model's tool calls end its turn; no stop sequences needed

    def __init__(
        self,
        model: ToolCallingModel,
        tools: Sequence[Tool],
        system_prompt: str | None = None,
        response_format: type[BaseModel] | None = None,
        context_budget: ContextBudget | None = None,
        parallel_tool_calls: bool = True,
    ) -> None:
        for tool in tools:
            check_function_name(tool)
        self.model = model
        self.system_prompt = system_prompt
        self.response_format = response_format
        self.context_budget = context_budget
        self.parallel_tool_calls = parallel_tool_calls
        self.tool_specs = [tool_spec(tool) for tool in tools]

    def build_messages(self, intermediate_steps: Sequence[AgentStep], **inputs: Any) -> list[Message]:
        # LangChain: the prompt ("system", system_prompt), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")
        head = [system_message(self.system_prompt)] if self.system_prompt else []
        return head + [user_message(str(inputs["input"]))] + format_to_tool_messages(intermediate_steps)

    def plan(
        self, intermediate_steps: Sequence[AgentStep], run: RunContext, **inputs: Any
    ) -> Narrated[list[ToolAgentAction] | AgentFinish]:
        # LangChain: RunnableMultiActionAgent.plan — the steps so far become messages; the reply's
        # tool calls become actions (several at once), a reply without any is the final answer.
        messages = self.build_messages(intermediate_steps, **inputs)
        if self.context_budget is not None:
            messages = yield from self.context_budget.fit(messages, run, self.model)
        reply = yield from call_chat_model(run, self.model, messages, self.tool_specs, self.parallel_tool_calls)
        if reply.tool_calls:
            return self.parse_tool_calls(reply)
        if self.response_format is not None:
            return parse_structured_answer(reply.text, self.response_format)
        return AgentFinish({"output": reply.text}, reply.text)

    def parse_tool_calls(self, reply: ModelReply) -> list[ToolAgentAction]:
        # LangChain: parse_ai_message_to_tool_action
        message = assistant_message(reply.text, reply.tool_calls)
        return [
            ToolAgentAction(call.name, call.arguments, _invoking_log(call, reply.text), (message,), call.id)
            for call in reply.tool_calls
        ]


def _invoking_log(call: ToolCall, content: str) -> str:
    content_msg = f"responded: {content}\n" if content else "\n"
    return f"\nInvoking: `{call.name}` with `{call.arguments}`\n{content_msg}\n"


def create_tool_calling_agent(
    model: ChatModel | ToolCallingModel,
    tools: Sequence[Tool],
    system_prompt: str | None = None,
    *,
    response_format: type[BaseModel] | None = None,
    context_budget: ContextBudget | None = None,
    parallel_tool_calls: bool = True,
) -> ToolCallingAgent:
    """LangChain: create_tool_calling_agent. Use it with the same AgentExecutor as the ReAct agent."""
    if not _calls_tools(model):
        raise TypeError(
            f"{type(model).__name__} has no generate_messages(messages, tools, ...): "
            "the tool-calling agent needs a chat model that supports tool calls"
        )
    return ToolCallingAgent(model, tools, system_prompt, response_format, context_budget, parallel_tool_calls)


def _calls_tools(model: ChatModel | ToolCallingModel) -> TypeGuard[ToolCallingModel]:
    return callable(getattr(model, "generate_messages", None))  # ModelHooks.generate_messages
