"""Exercise flaky-tool: the supplier's service times out twice, then answers; the run gives up at once.

Run `loopscope exercise check flaky-tool` to see what the trace says, fix this file, check again.
"""

from executor import AgentExecutor, TransientError, create_react_agent, tool

failures_left = 2  # the service is down for the first two calls of a run


@tool
def supplier_quote(item: str) -> str:
    """Our supplier's quote for an item today, e.g. "red roses"."""
    global failures_left
    if failures_left > 0:
        failures_left -= 1
        raise TransientError("the supplier's quote service did not answer within 10 seconds")
    return f"Quote for {item}: 25 yuan a bunch of 20, valid today."


def build(model):
    tools = [supplier_quote]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools)
