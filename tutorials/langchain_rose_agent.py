"""The rose-pricing run built with LangChain's own classes: AgentExecutor, a ReAct agent, LLMMathChain."""

from __future__ import annotations

from typing import Any

import numexpr

# LangChain is an optional extra (`loopscope[langchain]`): this module is imported only by what records
# the LangChain rose run (`loopscope fixtures --rerecord`, tests, bench), never when tutorials are walked.
from .langchain_extra import langchain_missing
from .rose_pricing import QUESTION, REPLIES, search

try:
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_classic.chains import LLMMathChain
    from langchain_core.language_models import BaseChatModel, FakeListLLM
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.prompts import PromptTemplate
    from langchain_core.tools import StructuredTool, Tool
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise langchain_missing(missing) from None

# The prompt of LangChain's hub "hwchase17/react", which the book's run uses.
REACT_PROMPT = PromptTemplate.from_template(
    "Answer the following questions as best you can. You have access to the following tools:\n\n{tools}\n\n"
    "Use the following format:\n\nQuestion: the input question you must answer\n"
    "Thought: you should always think about what to do\nAction: the action to take, should be one of "
    "[{tool_names}]\nAction Input: the input to the action\nObservation: the result of the action\n"
    "... (this Thought/Action/Action Input/Observation can repeat N times)\n"
    "Thought: I now know the final answer\nFinal Answer: the final answer to the original input question\n\n"
    "Begin!\n\nQuestion: {input}\nThought:{agent_scratchpad}"
)


class ScriptedLLM(FakeListLLM):
    """LangChain's FakeListLLM, cutting each reply at a stop sequence as a real endpoint does, under the
    name loopscope's scripted model has (so the two runs' settings compare)."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _call(self, prompt: str, stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any) -> str:
        reply = super()._call(prompt, stop, run_manager, **kwargs)
        cuts = [reply.index(word) for word in stop or () if word in reply]
        return reply[: min(cuts)] if cuts else reply


def rose_tools(llm: Any) -> list[Tool]:
    math = LLMMathChain.from_llm(llm)
    return [
        Tool(
            name="Search", func=search, description="Useful for finding current facts, such as today's market prices."
        ),
        Tool(name="Calculator", func=math.run, description="Useful for when you need to answer questions about math."),
    ]


def rose_executor(replies: list[str] | None = None) -> AgentExecutor:
    llm = ScriptedLLM(responses=list(replies or REPLIES))
    tools = rose_tools(llm)
    agent = create_react_agent(llm, tools, REACT_PROMPT)
    return AgentExecutor(agent=agent, tools=tools, max_iterations=15, early_stopping_method="force")


def rose_inputs() -> dict[str, str]:
    return {"input": QUESTION}


def tool_calling_replies() -> list[Any]:
    """The rose run as a tool-calling chat model would answer it: two tool calls, then the answer."""
    return [
        AIMessage("", tool_calls=[{"name": "Search", "args": {"query": "玫瑰花进货价格"}, "id": "call_1"}]),
        AIMessage("", tool_calls=[{"name": "Calculator", "args": {"expression": "25 * 1.05"}, "id": "call_2"}]),
        AIMessage("目前市场上玫瑰花的进货价格大约每扎25~30元，加价5%后定价约26.25元。"),
    ]


def scripted_chat_model(replies: list[Any]) -> Any:
    """A LangChain chat model giving `replies` (AIMessages, tool calls included) in order, not streamed."""

    class ScriptedChatModel(BaseChatModel):
        replies: list[Any]

        @property
        def _llm_type(self) -> str:
            return "scripted-chat"

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
            return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    return ScriptedChatModel(replies=list(replies))


def calculator(expression: str) -> str:
    """Evaluate arithmetic with numexpr, as LLMMathChain does."""
    return f"Answer: {float(numexpr.evaluate(expression))}"


def structured_tools() -> list[Any]:
    def search_tool(query: str) -> str:
        """Useful for finding current facts, such as today's market prices."""
        return search(query)

    return [
        StructuredTool.from_function(search_tool, name="Search"),
        StructuredTool.from_function(calculator, name="Calculator"),
    ]


def run(callbacks: list[Any], clock: Any = None) -> None:
    """The LangChain rose run with these callback handlers (the langchain tutorial's fixture); nothing in it waits."""
    rose_executor().invoke(rose_inputs(), {"callbacks": callbacks})
