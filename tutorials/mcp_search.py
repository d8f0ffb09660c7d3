"""A search tool from an MCP server, whose answers come in two vendors' shapes: probed with JSONPath, path by path."""

from __future__ import annotations

import sys

from executor import ChatModel, Tool, mcp_tools

from .flower_shop import final_answer, thought
from .scenario import Scenario

QUESTION = "What does a bunch of 20 red roses cost wholesale, and what does delivery in the city add?"
# Where each vendor keeps the pages, in the order they are tried (seed 004's list).
PAGE_PATHS = ["$.pages", "$.data.pages", "$.result.content[0].text", "$.choices[0].message.content"]
# -P: the working directory is not put on sys.path, so a user's own tutorials/ cannot stand in for ours.
SERVER = [sys.executable, "-P", "-m", "tutorials.mcp_search_server"]  # recorded as `python -P -m …`
ANSWER = "A bunch of 20 red roses wholesales for 25-30 yuan (about 28); delivery in the city adds 15 yuan a bouquet."


def search_server(model: ChatModel) -> list[Tool]:
    """The server's tools (one: search), listed when the scenario is built."""
    return list(mcp_tools(SERVER, extract={"search": PAGE_PATHS}))


SCENARIO = Scenario(
    name="mcp-search",
    title="MCP: a search tool from a server, its answers probed path by path",
    question=QUESTION,
    build_tools=search_server,
    replies=[
        thought("I need today's wholesale price of red roses.", "search", "wholesale price red roses bunch of 20"),
        thought("Roses cost 25-30 yuan a bunch. Now the delivery fee.", "search", "flower delivery fee city centre"),
        final_answer("I now know the final answer.", ANSWER),
    ],
    settings={"handle_parsing_errors": True},
)
