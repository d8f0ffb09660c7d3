"""Exercise stop-sequence: the model writes its own "Observation:" and answers from it.

Run `loopscope exercise check stop-sequence` to see what the trace says, fix this file, check again.
"""

from executor import AgentExecutor, PromptTemplate, ReActAgent, tool
from executor.agents.prompt import REACT_PROMPT


@tool
def search(query: str) -> str:
    """Today's wholesale price of a flower, e.g. "red roses"."""
    return "Red roses: 25 yuan for a bunch of 20 at today's Kunming auction."


def build(model):
    tools = [search]
    # Copied from a chat-model example that "needed no stop words".
    agent = ReActAgent(model, tools, PromptTemplate(REACT_PROMPT), stop=[])
    return AgentExecutor(agent=agent, tools=tools, handle_parsing_errors=True)
