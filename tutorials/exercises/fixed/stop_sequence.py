"""Exercise stop-sequence, fixed: the model's turn ends where the real observation must come."""

from executor import AgentExecutor, PromptTemplate, ReActAgent, tool
from executor.agents.prompt import REACT_PROMPT


@tool
def search(query: str) -> str:
    """Today's wholesale price of a flower, e.g. "red roses"."""
    return "Red roses: 25 yuan for a bunch of 20 at today's Kunming auction."


def build(model):
    tools = [search]
    # The model stops before "Observation": the executor, not the model, writes what the tool said.
    agent = ReActAgent(model, tools, PromptTemplate(REACT_PROMPT), stop=["\nObservation"])
    return AgentExecutor(agent=agent, tools=tools, handle_parsing_errors=True)
