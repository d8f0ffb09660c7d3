"""The flower shop the failure tutorials share: an English question, a fixed search page and the tools."""

from __future__ import annotations

from executor import ChatModel, Tool, llm_math_tool

QUESTION = "What do florists pay wholesale for a bunch of 20 red roses right now, and what should I charge if I add 5%?"

SEARCH_RESULTS = [
    "1. Wholesale flower market weekly: red roses trade at 25-30 yuan per bunch of 20 stems.",
    "2. Growers report higher heating costs this winter; prices are a little above last year.",
    "3. Florists expect prices to jump before Valentine's Day and fall back afterwards.",
]


def search(query: str) -> str:
    """A search engine with one fixed page of results, so every recording of a scenario is the same."""
    return "\n".join(SEARCH_RESULTS)


def search_tool() -> Tool:
    # Marked non-deterministic like a real web search: a replay answers it from the recording.
    return Tool(
        name="Search",
        func=search,
        deterministic=False,
        description="Useful for finding current facts, such as today's market prices.",
    )


def search_and_calculator(model: ChatModel) -> list[Tool]:
    """The rose-pricing toolset, with English search results."""
    return [search_tool(), llm_math_tool(model)]


def search_only(model: ChatModel) -> list[Tool]:
    return [search_tool()]


def thought(text: str, tool: str, tool_input: str) -> str:
    """A well-formed ReAct reply asking for one tool."""
    return f" {text}\nAction: {tool}\nAction Input: {tool_input}"


def final_answer(text: str, answer: str) -> str:
    return f" {text}\nFinal Answer: {answer}"


# The Calculator's own model call, answered the way LLMMathChain expects: an expression in a text block.
CALCULATOR_REPLY = '```text\n25 * 1.05\n```\n...numexpr.evaluate("25 * 1.05")...\n```output\n26.25\n```'

ANSWER = "Florists pay about 25-30 yuan for a bunch of 20 red roses; at 25 yuan plus 5% the price should be 26.25 yuan."
