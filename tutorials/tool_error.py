"""A tool that fails: the error kills the run, becomes an observation, or is retried with backoff."""

from __future__ import annotations

from executor import ChatModel, Tool, ToolError

from .flower_shop import ANSWER, QUESTION, final_answer, search_tool, thought
from .scenario import Scenario

SUPPLIER_DOWN = "the supplier's quote service did not answer within 10 seconds"


def supplier_quote(product: str) -> str:
    """The wholesaler's quote service, which is down for the whole of these scenarios."""
    raise ToolError(f"SupplierQuote failed: {SUPPLIER_DOWN}")


def quote_tool(handle_tool_error: bool) -> Tool:
    # Deterministic on purpose: a replay runs it for real, so it fails again exactly as recorded.
    return Tool(name="SupplierQuote", func=supplier_quote, handle_tool_error=handle_tool_error,
                description="Asks our wholesale supplier for today's price of a product.")


def tools_unhandled(model: ChatModel) -> list[Tool]:
    return [quote_tool(handle_tool_error=False), search_tool()]


def tools_handled(model: ChatModel) -> list[Tool]:
    return [quote_tool(handle_tool_error=True), search_tool()]


ASK_SUPPLIER = thought("Our supplier knows today's wholesale price best; I will ask for a quote.",
                       "SupplierQuote", "red roses, bunch of 20")

SCENARIO_UNHANDLED = Scenario(
    name="tool-error-unhandled",
    title="Tool error, not handled: the exception ends the run",
    question=QUESTION,
    build_tools=tools_unhandled,
    replies=[ASK_SUPPLIER],
    expect_error=True,
)

SCENARIO_HANDLED = Scenario(
    name="tool-error-handled",
    title="Tool error, handled: the message becomes the observation",
    question=QUESTION,
    build_tools=tools_handled,
    replies=[
        ASK_SUPPLIER,
        # the observation carried the failure; the model turns to the other tool
        thought("The supplier is not answering. I will look the price up with Search instead.",
                "Search", "wholesale price red roses bunch of 20"),
        final_answer("I now know the final answer.", ANSWER),
    ],
)
