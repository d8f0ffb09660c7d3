"""Exercise max-iterations, fixed: room for the rounds the task needs, and still a limit."""

from executor import AgentExecutor, create_react_agent, tool


@tool
def search(query: str) -> str:
    """Today's wholesale price of a flower, e.g. "red roses"."""
    return "Red roses: 25 yuan for a bunch of 20 at today's Kunming auction."


@tool
def add_margin(price: str) -> str:
    """The selling price: a purchase price in yuan plus our 5% margin, e.g. "25"."""
    return f"{float(price) * 1.05:.2f} yuan"


def build(model):
    tools = [search, add_margin]
    # Search twice, price once, answer: four rounds; a limit stays, for a model that never stops.
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, max_iterations=6)
