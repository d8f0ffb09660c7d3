"""One question and one weather lookup through four loops: loopscope's AgentExecutor, LangGraph, the Agents SDK, pydantic-ai."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from executor import ChatModel, ModelReply, Tool, ToolError, create_tool_calling_agent

from .scenario import Scenario
from .weather import tool_calls

QUESTION = "What is the weather in Beijing and in Shanghai today? Where is it better for a walk?"
SYSTEM_PROMPT = (
    "You are a travel assistant. Look up the weather with get_weather, one call per city; "
    "when several cities are asked about, call the tool for all of them in the same reply."
)
FORECASTS = {
    "Beijing": "Beijing: sunny, 18°C, light wind from the north",
    "Shanghai": "Shanghai: light rain, 16°C, humidity 85%",
}
ANSWER = "Beijing is better for a walk today: sunny and 18°C with a light north wind. Shanghai has light rain at 16°C."
MODEL = "gpt-4o-mini"  # the name each loop's model goes by; every call is answered by REPLIES, offline

# The same three replies answer every loop: two lookups at once (one with a city name the service does
# not know), the one that failed asked again with the right name, then the answer.
REPLIES: list[str | ModelReply] = [
    tool_calls(("call_bj", "get_weather", {"city": "Beijing"}), ("call_sh", "get_weather", {"city": "SH"})),
    tool_calls(("call_sh2", "get_weather", {"city": "Shanghai"})),
    ANSWER,
]


class UnknownCity(LookupError):
    """The weather service knows no city by that name."""


def forecast(city: str) -> str:
    """Today's weather for one city: the lookup every loop's tool makes, so the four runs ask the same service."""
    if city not in FORECASTS:
        raise UnknownCity(f"no forecast for {city!r}; known cities: {', '.join(FORECASTS)}")
    return FORECASTS[city]


class City(BaseModel):
    city: str = Field(description="The city's English name, e.g. Beijing")


def loopscope_tools(model: ChatModel) -> list[Tool]:
    """get_weather as loopscope's executor takes it: only a ToolError becomes the model's observation
    (handle_tool_error), so the lookup's own error is said as one."""

    def get_weather(city: str) -> str:
        try:
            return forecast(city)
        except UnknownCity as error:
            raise ToolError(str(error)) from None

    return [
        Tool(
            name="get_weather",
            description="Today's weather for one city.",
            func=get_weather,
            args_schema=City,
            handle_tool_error=True,
        )
    ]


def loopscope_agent(model: ChatModel, tools: list[Tool]) -> Any:
    return create_tool_calling_agent(model, tools, SYSTEM_PROMPT)


def _scenario(name: str, title: str, fixture: str, framework: str = "") -> Scenario:
    # A framework's part is recorded by its own loop (scripts/record_four_loops.py); its tools, agent and
    # replies here describe that run in loopscope's terms, and nothing of loopscope's re-executes it.
    return Scenario(
        name=name,
        title=title,
        question=QUESTION,
        build_tools=loopscope_tools,
        build_agent=loopscope_agent,
        replies=REPLIES,
        fixture_name=f"four_loops/{fixture}.jsonl",
        framework=framework,
    )


SCENARIO_LOOPSCOPE = _scenario(
    "four-loops-loopscope", "Four loops, 1: loopscope's AgentExecutor (LangChain classic's loop)", "loopscope"
)
SCENARIO_LANGGRAPH = _scenario(
    "four-loops-langgraph", "Four loops, 2: LangChain 1.x create_agent (a LangGraph graph)", "langgraph", "LangGraph"
)
SCENARIO_OPENAI_AGENTS = _scenario(
    "four-loops-openai-agents", "Four loops, 3: the OpenAI Agents SDK's Runner", "openai_agents", "OpenAI Agents SDK"
)
SCENARIO_PYDANTIC_AI = _scenario(
    "four-loops-pydantic-ai", "Four loops, 4: pydantic-ai's Agent graph", "pydantic_ai", "pydantic-ai"
)
