"""The four-loops question as LangGraph, the OpenAI Agents SDK and pydantic-ai agents: MODULE:ATTR for `loopscope record`.

Each function takes no arguments and returns the framework's agent, so `loopscope record
tutorials.four_loops_agents:langgraph_agent --input ... --replies ...` and `loopscope verify --agent ...`
can name it. Each tool calls the same `forecast` and says its error the way its own loop hands an error
back to the model; nothing else differs. The frameworks are optional extras, imported when an agent is built.
"""

from __future__ import annotations

import json
from typing import Any

from .four_loops import MODEL, REPLIES, SYSTEM_PROMPT, UnknownCity, forecast


def langgraph_agent() -> Any:
    """LangChain 1.x create_agent: a graph of a model node and a tools node. Its model plays REPLIES, so the
    agent also runs on its own; a recording answers it from the replies file instead."""
    from langchain.agents import create_agent  # the optional extra (see the module docstring)
    from langchain_core.messages import AIMessage  # the optional extra
    from langchain_core.tools import StructuredTool, ToolException  # the optional extra

    from .langchain_chat import ScriptedChatModel, tool_call_reply  # imports LangChain (as above)

    def get_weather(city: str) -> str:
        """Today's weather for one city."""
        try:
            return forecast(city)
        except UnknownCity as error:
            # Only a ToolException is caught by the tool (handle_tool_error) and becomes the ToolMessage;
            # any other exception goes through the tools node and ends the run.
            raise ToolException(str(error)) from None

    tool = StructuredTool.from_function(get_weather, handle_tool_error=True)
    replies = [
        tool_call_reply(*((c.id, c.name, _json(c.arguments)) for c in r.tool_calls))
        if not isinstance(r, str)
        else AIMessage(r)
        for r in REPLIES
    ]
    model = ScriptedChatModel(replies=replies, name_of_model=MODEL)
    return create_agent(model, tools=[tool], system_prompt=SYSTEM_PROMPT, name="weather")


def openai_agents_agent() -> Any:
    """An Agents SDK Agent. Its model is named, not built: offline, every call is answered from the recording."""
    from agents import Agent, function_tool  # the optional extra

    @function_tool
    def get_weather(city: str) -> str:
        """Today's weather for one city."""
        # No translation: the SDK catches any exception a function tool raises and sends the model its
        # default failure text (failure_error_function) as the tool's output.
        return forecast(city)

    return Agent(name="weather", instructions=SYSTEM_PROMPT, model=MODEL, tools=[get_weather])


def pydantic_ai_agent() -> Any:
    """A pydantic-ai Agent, its model named and not checked until it runs (offline it never runs)."""
    from pydantic_ai import Agent, ModelRetry  # the optional extra

    agent = Agent(f"openai:{MODEL}", name="weather", instructions=SYSTEM_PROMPT, defer_model_check=True)

    @agent.tool_plain
    def get_weather(city: str) -> str:
        """Today's weather for one city."""
        try:
            return forecast(city)
        except UnknownCity as error:
            # Only ModelRetry goes back to the model (as a retry prompt, counted against the tool's
            # retries); any other exception ends the run.
            raise ModelRetry(str(error)) from None

    return agent


def _json(arguments: str) -> dict[str, Any]:
    value = json.loads(arguments)
    return value if isinstance(value, dict) else {}
