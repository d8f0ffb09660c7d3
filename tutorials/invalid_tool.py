"""The model asks for a tool that does not exist, is told which ones do, and recovers."""

from __future__ import annotations

from .flower_shop import (
    ANSWER,
    CALCULATOR_REPLY,
    QUESTION,
    final_answer,
    search_and_calculator,
    thought,
)
from .scenario import Scenario

REPLIES = [
    # round 1: a plausible tool name the model invented; nothing by that name was given to it
    thought(
        "Prices like this live in a price database, so I will query it.",
        "PriceDatabase",
        "red roses, bunch of 20, wholesale",
    ),
    # round 2: the observation named the real tools, and the model picks one of them
    thought(
        "There is no PriceDatabase tool. Search is the one for current prices.",
        "Search",
        "wholesale price red roses bunch of 20",
    ),
    # round 3: the arithmetic goes to the Calculator, which spends the next reply on its own model call
    thought("Roses cost 25-30 yuan a bunch. I will take 25 yuan and add 5%.", "Calculator", "25 * 1.05"),
    CALCULATOR_REPLY,
    final_answer("I now know the final answer.", ANSWER),
]

SCENARIO = Scenario(
    name="invalid-tool",
    title="Invalid tool: the model names a tool that does not exist",
    question=QUESTION,
    build_tools=search_and_calculator,
    replies=REPLIES,
)
