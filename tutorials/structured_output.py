"""A final answer that must be a pydantic object: the first one fails validation, the second is accepted."""

from __future__ import annotations

from pydantic import BaseModel, Field

from executor import ChatModel, Tool, create_tool_calling_agent

from .scenario import Scenario
from .weather import SYSTEM_PROMPT, tool_calls, weather_tool

QUESTION = "Is Beijing good for a walk today? Answer as a WalkAdvice object."


class WalkAdvice(BaseModel):
    """What the run must end with: a validated object, not text."""

    city: str
    temperature_c: int = Field(description="today's temperature in whole degrees Celsius")
    go_for_a_walk: bool
    reason: str


def agent(model: ChatModel, tools: list[Tool]):
    return create_tool_calling_agent(model, tools, SYSTEM_PROMPT, response_format=WalkAdvice)


FIRST_TRY = (
    'Here is my advice:\n```json\n{"city": "Beijing", "temperature_c": "mild, about 18", '
    '"go_for_a_walk": "yes", "reason": "Sunny with good air."}\n```'
)
SECOND_TRY = (
    '{"city": "Beijing", "temperature_c": 18, "go_for_a_walk": true, "reason": "Sunny, 18°C, light wind and good air."}'
)

SCENARIO = Scenario(
    name="structured-output",
    title="Structured output: an answer that fails validation once, then a WalkAdvice object",
    question=QUESTION,
    build_tools=lambda model: [weather_tool()],
    build_agent=agent,
    replies=[tool_calls(("call_bj", "get_weather", {"city": "Beijing"})), FIRST_TRY, SECOND_TRY],
    settings={"handle_parsing_errors": True},
)
