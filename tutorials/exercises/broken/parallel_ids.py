"""Exercise parallel-ids: two tool calls run at once, and each result reaches the model as the other's.

Run `loopscope exercise check parallel-ids` to see what the trace says, fix this file, check again.
"""

from executor import AgentExecutor, ToolCallingAgent, tool
from executor.models.messages import tool_message, user_message


@tool
def stock(item: str) -> str:
    """How many of an item the shop has, e.g. "rose"."""
    return f"{item}: 40 in stock"


@tool
def price(item: str) -> str:
    """The price of one of an item in yuan, e.g. "rose"."""
    return f"{item}: 2.50 yuan each"


class ShopAgent(ToolCallingAgent):
    """The tool-calling agent with its own history, written for a stable prompt."""

    def build_messages(self, intermediate_steps, **inputs):
        messages = [user_message(str(inputs["input"]))]
        calls = [step.action for step in intermediate_steps]
        for call in calls:  # the model's own turn (its tool calls), once
            for message in call.message_log:
                if message not in messages:
                    messages.append(message)
        # Results sorted by tool name, so the history reads the same on every run.
        results = sorted(intermediate_steps, key=lambda step: step.action.tool)
        for call, step in zip(calls, results):
            messages.append(tool_message(call.tool_call_id, str(step.observation)))
        return messages


def build(model):
    tools = [stock, price]
    return AgentExecutor(agent=ShopAgent(model, tools), tools=tools)
