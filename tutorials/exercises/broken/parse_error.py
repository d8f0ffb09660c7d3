"""Exercise parse-error: one reply without an Action line ends the whole run.

Run `loopscope exercise check parse-error` to see what the trace says, fix this file, check again.
"""

from executor import AgentExecutor, create_react_agent, tool


@tool
def search(query: str) -> str:
    """Today's wholesale price of a flower, e.g. "red roses"."""
    return "Red roses: 25 yuan for a bunch of 20 at today's Kunming auction."


def build(model):
    tools = [search]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools)
