"""An unparseable reply, run twice: with handle_parsing_errors off (the run stops) and on (it recovers)."""

from __future__ import annotations

from .flower_shop import QUESTION, final_answer, search_only, thought
from .scenario import Scenario

# Thinking out loud with no "Action:" line: the ReAct parser cannot turn this into anything.
UNPARSEABLE = " To price the roses I first need today's wholesale price, then I can add five percent to it."

ANSWER = "Florists pay about 25-30 yuan for a bunch of 20 red roses; with 5% added, 26.25-31.50 yuan."

SCENARIO_OFF = Scenario(
    name="parse-error-off",
    title="Parse error with handle_parsing_errors=False: the run stops",
    question=QUESTION,
    build_tools=search_only,
    replies=[UNPARSEABLE],
    expect_error=True,
)

SCENARIO_ON = Scenario(
    name="parse-error-on",
    title="Parse error with handle_parsing_errors=True: the model rewrites its reply",
    question=QUESTION,
    build_tools=search_only,
    replies=[
        UNPARSEABLE,
        # the observation quoted the format rule; the model now writes an Action line
        thought(
            "I forgot the format. I will search for the price first.", "Search", "wholesale price red roses bunch of 20"
        ),
        final_answer("I now know the final answer.", ANSWER),
    ],
    settings={"handle_parsing_errors": True},
)
