"""Exercise max-iterations: the run stops one round before the model's right answer.

Run `loopscope exercise check max-iterations` to see what the trace says, fix this file, check again.
"""

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
    # Two rounds is plenty: search, then answer. (Is it?)
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, max_iterations=2)
