"""A model that never finishes: the loop runs into max_iterations (the real default, 15) and stops."""

from __future__ import annotations

from .flower_shop import QUESTION, search_and_calculator, thought
from .scenario import Scenario

# Fifteen searches, each chasing one more source; the model never writes "Final Answer:".
QUERIES = [
    "wholesale price red roses bunch of 20",
    "red rose auction price Kunming this week",
    "rose wholesale price per stem",
    "red rose price trend last month",
    "florist rose purchase price survey",
    "imported rose wholesale price",
    "rose price before Valentine's Day",
    "rose price after Valentine's Day",
    "flower market report roses",
    "rose grower selling price",
    "rose price per bunch online wholesaler",
    "red rose price regional differences",
    "rose wholesale price forecast",
    "rose price news today",
    "wholesale roses price confirmation",
]

REPLIES = [
    thought(
        "I should check one more source before I trust this price."
        if n
        else "I need today's wholesale price of red roses first.",
        "Search",
        query,
    )
    for n, query in enumerate(QUERIES)
]

SCENARIO = Scenario(
    name="iteration-limit",
    title="Iteration limit: a model that never finishes meets max_iterations=15",
    question=QUESTION,
    build_tools=search_and_calculator,
    replies=REPLIES,
    # No settings: max_iterations stays at its default of 15, the number the lesson is about.
)
