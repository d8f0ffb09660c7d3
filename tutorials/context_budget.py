"""Long tool results push the history past a small budget: trimmed in one run, summarized in the other."""

from __future__ import annotations

from typing import Literal

from executor import ChatModel, ContextBudget, Tool, ToolError, create_tool_calling_agent

from .scenario import Scenario
from .weather import tool_calls

SYSTEM_PROMPT = "You help people choose a tea house. Read each tea house's reviews with read_reviews, one at a time."
QUESTION = "Which of these tea houses should I visit: Lao She, Huxinting or Taotaoju?"
REVIEWS = {
    "Lao She": (
        "Lao She Tea House, Beijing. Reviews: the evening show mixes opera, acrobatics and crosstalk; "
        "tickets 180 to 580 yuan include tea and snacks; staff patient with visitors who speak no "
        "Chinese; crowded with tour groups at weekends; the jasmine tea is ordinary but the show is "
        "the reason to come. Rating 4.4 of 5 from 2,310 reviews."
    ),
    "Huxinting": (
        "Huxinting Tea House, Shanghai. Reviews: a wooden pavilion in the middle of a lake reached "
        "by the zigzag bridge; quiet upstairs in the morning, packed after ten; a pot of Longjing "
        "costs 120 yuan with small dishes of dried fruit; views are lovely, service slow when busy. "
        "Rating 4.1 of 5 from 1,870 reviews."
    ),
    "Taotaoju": (
        "Taotaoju, Guangzhou. Reviews: dim sum since 1880; har gow and char siu bao praised in most "
        "reviews; tables turn fast so expect to share one; tea is charged per person, about 10 yuan; "
        "queues at 11 on Sundays; best value of the three for a full meal. "
        "Rating 4.6 of 5 from 3,402 reviews."
    ),
}
BUDGET_TOKENS = 420  # room for the question and about two reviews, not three


def reviews_tool() -> Tool:
    def read_reviews(tool_input: str) -> str:
        if tool_input not in REVIEWS:
            raise ToolError(f"no reviews for {tool_input!r}; known: {', '.join(REVIEWS)}")
        return REVIEWS[tool_input]

    return Tool(
        name="read_reviews",
        description="The reviews of one tea house, by its name.",
        func=read_reviews,
        handle_tool_error=True,
    )


def _agent(strategy: Literal["trim", "summarize"]):
    def agent(model: ChatModel, tools: list[Tool]):
        budget = ContextBudget(max_tokens=BUDGET_TOKENS, strategy=strategy)
        return create_tool_calling_agent(model, tools, SYSTEM_PROMPT, context_budget=budget)

    return agent


READS = [tool_calls((f"call_{i}", "read_reviews", {"tool_input": name})) for i, name in enumerate(REVIEWS, 1)]
SUMMARY = (
    "Lao She (Beijing): opera and acrobatics show, 180-580 yuan with tea, crowded at weekends, 4.4/5. "
    "Huxinting (Shanghai): lake pavilion, quiet mornings, Longjing 120 yuan, slow when busy, 4.1/5."
)
TRIMMED_ANSWER = (
    "From the reviews I still have: Huxinting is calm in the morning (4.1/5) and Taotaoju has the "
    "best food and value (4.6/5). I no longer have Lao She's reviews in front of me, so "
    "I cannot compare it. Go to Taotaoju for a meal."
)
SUMMARIZED_ANSWER = (
    "Go to Taotaoju for the best food and value (4.6/5, about 10 yuan tea per person); choose "
    "Lao She for the evening show (4.4/5, 180-580 yuan) or Huxinting for a quiet morning "
    "pot of Longjing by the lake (4.1/5)."
)

SCENARIO_TRIM = Scenario(
    name="context-budget-trim",
    title="Context budget, trim: the oldest tool results are dropped before the model call",
    question=QUESTION,
    build_tools=lambda model: [reviews_tool()],
    build_agent=_agent("trim"),
    replies=[*READS, TRIMMED_ANSWER],
)

SCENARIO_SUMMARIZE = Scenario(
    name="context-budget-summarize",
    title="Context budget, summarize: a nested model call replaces the oldest turns with a summary",
    question=QUESTION,
    build_tools=lambda model: [reviews_tool()],
    build_agent=_agent("summarize"),
    replies=[*READS, SUMMARY, SUMMARIZED_ANSWER],
)
