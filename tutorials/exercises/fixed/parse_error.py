"""Exercise parse-error, fixed: a reply that does not parse goes back to the model as its observation."""

from executor import AgentExecutor, create_react_agent, tool


@tool
def search(query: str) -> str:
    """Today's wholesale price of a flower, e.g. "red roses"."""
    return "Red roses: 25 yuan for a bunch of 20 at today's Kunming auction."


def build(model):
    tools = [search]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, handle_parsing_errors=True)
