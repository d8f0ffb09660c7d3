"""Exercise parallel-ids, fixed: each result goes back under the id of the call that asked for it."""

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
        for step in intermediate_steps:  # the model's own turn (its tool calls), once
            for message in step.action.message_log:
                if message not in messages:
                    messages.append(message)
        # Sorting is fine: each result keeps the id of its own call, whatever the order.
        for step in sorted(intermediate_steps, key=lambda step: step.action.tool):
            messages.append(tool_message(step.action.tool_call_id, str(step.observation)))
        return messages


def build(model):
    tools = [stock, price]
    return AgentExecutor(agent=ShopAgent(model, tools), tools=tools)
