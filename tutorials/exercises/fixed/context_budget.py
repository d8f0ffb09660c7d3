"""Exercise context-budget, fixed: the oldest turns are dropped before the request outgrows the window."""

from executor import AgentExecutor, ContextBudget, create_tool_calling_agent, tool

REVIEWS = {
    "Lao She": "Lao She Tea House, Beijing. Evening show of opera, acrobatics and crosstalk; "
    "tickets 180-580 yuan; tea is ordinary and pricey; the show is the reason to go. " * 3,
    "Huxinting": "Huxinting Tea House, Shanghai. A wooden pavilion on a lake, reached by a zigzag "
    "bridge; calm in the morning, crowded at weekends; tea from 60 yuan. " * 3,
    "Taotaoju": "Taotaoju, Guangzhou. Dim sum since 1880; har gow and char siu bao praised in most "
    "reviews; about 10 yuan tea per person; the best food and value of the three. " * 3,
}


@tool
def read_reviews(place: str) -> str:
    """All the reviews of a tea house: "Lao She", "Huxinting" or "Taotaoju"."""
    return REVIEWS.get(place, f"no reviews of {place}")


def build(model):
    tools = [read_reviews]
    budget = ContextBudget(max_tokens=300)  # under the model's 400, with room for its reply
    agent = create_tool_calling_agent(model, tools, "You compare tea houses from their reviews.", context_budget=budget)
    return AgentExecutor(agent=agent, tools=tools)
