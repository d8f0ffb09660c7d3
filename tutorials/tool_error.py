"""A tool that fails: the error kills the run, becomes an observation, or is retried with backoff."""

from __future__ import annotations

import random

from executor import ChatModel, RetryPolicy, Tool, ToolError, llm_math_tool

from .flower_shop import (
    ANSWER,
    CALCULATOR_REPLY,
    QUESTION,
    final_answer,
    search_tool,
    thought,
)
from .scenario import Scenario

SUPPLIER_DOWN = "the supplier's quote service did not answer within 10 seconds"


def supplier_quote(product: str) -> str:
    """The wholesaler's quote service, which is down for the whole of these scenarios."""
    raise ToolError(f"SupplierQuote failed: {SUPPLIER_DOWN}")


def quote_tool(handle_tool_error: bool) -> Tool:
    # Deterministic on purpose: a replay runs it for real, so it fails again exactly as recorded.
    return Tool(
        name="SupplierQuote",
        func=supplier_quote,
        handle_tool_error=handle_tool_error,
        description="Asks our wholesale supplier for today's price of a product.",
    )


QUOTE = "Quote for red roses, bunch of 20: 25 yuan wholesale, valid today."
TIMEOUTS_BEFORE_ANSWER = 3


def flaky_quote_tool() -> Tool:
    """The quote service on a bad day: it times out three times, then answers.

    Built fresh for every run, so every recording and every replay sees the same three timeouts.
    """
    timeouts_left = TIMEOUTS_BEFORE_ANSWER

    def quote(product: str) -> str:
        nonlocal timeouts_left
        if timeouts_left:
            timeouts_left -= 1
            raise TimeoutError(SUPPLIER_DOWN)
        return QUOTE

    # Delays of 1, 2, 4 s capped at 3 s, each jittered to between half and all of itself; the
    # seeded source makes the jitter the same in every run.
    policy = RetryPolicy(
        max_retries=4,
        initial_delay=1.0,
        backoff_factor=2.0,
        max_delay=3.0,
        jitter=True,
        retry_on=(TimeoutError,),
        rng=random.Random(2024).random,
    )
    return Tool(
        name="SupplierQuote",
        func=quote,
        retry_policy=policy,
        description="Asks our wholesale supplier for today's price of a product.",
    )


def tools_unhandled(model: ChatModel) -> list[Tool]:
    return [quote_tool(handle_tool_error=False), search_tool()]


def tools_handled(model: ChatModel) -> list[Tool]:
    return [quote_tool(handle_tool_error=True), search_tool()]


ASK_SUPPLIER = thought(
    "Our supplier knows today's wholesale price best; I will ask for a quote.",
    "SupplierQuote",
    "red roses, bunch of 20",
)

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
        thought(
            "The supplier is not answering. I will look the price up with Search instead.",
            "Search",
            "wholesale price red roses bunch of 20",
        ),
        final_answer("I now know the final answer.", ANSWER),
    ],
)


def tools_retried(model: ChatModel) -> list[Tool]:
    return [flaky_quote_tool(), search_tool(), llm_math_tool(model)]


SCENARIO_RETRIED = Scenario(
    name="tool-error-retried",
    title="Tool error, retried: exponential backoff with jitter and a cap",
    question=QUESTION,
    build_tools=tools_retried,
    replies=[
        ASK_SUPPLIER,
        # the fourth attempt got through; the quote goes to the Calculator
        thought("The supplier quotes 25 yuan for a bunch. I will add 5%.", "Calculator", "25 * 1.05"),
        CALCULATOR_REPLY,
        final_answer("I now know the final answer.", ANSWER),
    ],
)
