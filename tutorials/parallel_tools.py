"""Three cities' weather in one reply of three tool calls: one lookup is slow and one fails."""

from __future__ import annotations

from executor import ChatModel, Tool, create_tool_calling_agent
from executor.clock import Clock

from .scenario import Scenario
from .weather import SYSTEM_PROMPT, tool_calls, weather_tool

QUESTION = "What is the weather in Beijing, Shanghai and Guangzhou today? Where should I go for a walk?"
ANSWER = (
    "Beijing is the place for a walk today: sunny and 18°C with good air. Shanghai has light rain "
    "(16°C). I could not get Guangzhou's weather: the service timed out."
)


def agent(model: ChatModel, tools: list[Tool]):
    return create_tool_calling_agent(model, tools, SYSTEM_PROMPT)


def tools(model: ChatModel, clock: Clock) -> list[Tool]:
    return [weather_tool(clock)]


SCENARIO = Scenario(
    name="parallel-tools",
    title="Parallel tools: one reply, three tool calls running at once, one slow and one failing",
    question=QUESTION,
    build_tools=lambda model: [weather_tool()],
    build_clocked_tools=tools,
    build_agent=agent,
    replies=[
        tool_calls(
            ("call_bj", "get_weather", {"city": "Beijing"}),
            ("call_sh", "get_weather", {"city": "Shanghai"}),
            ("call_gz", "get_weather", {"city": "Guangzhou"}),
        ),
        ANSWER,
    ],
)
