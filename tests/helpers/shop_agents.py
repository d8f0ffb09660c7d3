"""A user's shop agent in the four kinds (ReAct and tool-calling, invoked and awaited), recorded into a temp folder.

Its tools are what a user writes: a pydantic-schema tool, an async tool and a tool that raises.
The tool-calling build asks for all three at once, so they run in parallel worker threads.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

SOURCE = '''"""My shop agent."""
import asyncio

from pydantic import BaseModel, Field

from executor import AgentExecutor, ToolError, create_react_agent, create_tool_calling_agent, tool


class Order(BaseModel):
    item: str = Field(description="what to price, e.g. rose")
    quantity: int


@tool(args_schema=Order)
def price(item: str, quantity: int) -> str:
    """The price of QUANTITY items."""
    each = {"rose": 2.5, "tulip": 1.25}.get(item, 1.0)
    total = each * quantity
    return f"{quantity} {item}s cost {total:.2f}"


@tool
async def stock(item: str) -> str:
    """How many of an item are in stock."""
    await asyncio.sleep(0)
    left = {"rose": 40}.get(item, 0)
    return f"{item}: {left} in stock"


@tool(handle_tool_error=True)
def deliver(city: str) -> str:
    """When an order reaches a city."""
    days = {"Beijing": 1}.get(city)
    if days is None:
        raise ToolError(f"no delivery to {city}")
    return f"{city}: in {days} day"


TOOLS = [price, stock, deliver]


def react(model):
    return AgentExecutor(agent=create_react_agent(model, TOOLS), tools=TOOLS, handle_parsing_errors=True)


def calling(model):
    return AgentExecutor(agent=create_tool_calling_agent(model, TOOLS, "You run a flower shop."), tools=TOOLS)
'''

QUESTION = "What do 12 roses cost, are there enough, and can they go to Shanghai?"
REACT_REPLIES = (
    ' I should price them.\nAction: price\nAction Input: {"item": "rose", "quantity": 12}',
    " Enough in stock?\nAction: stock\nAction Input: rose",
    " Delivery?\nAction: deliver\nAction Input: Shanghai",
    " I now know the final answer.\nFinal Answer: 30.00 yuan; 40 in stock; no delivery to Shanghai",
)
CALLS = (
    ("call_price", "price", {"item": "rose", "quantity": 12}),
    ("call_stock", "stock", {"item": "rose"}),
    ("call_deliver", "deliver", {"city": "Shanghai"}),
)
FINAL = "12 roses cost 30.00 yuan; 40 are in stock; there is no delivery to Shanghai."
KINDS = ("react", "react-awaited", "calling", "calling-awaited")


def calling_replies() -> list:
    from executor import ModelReply, ToolCall

    return [
        ModelReply("", tool_calls=tuple(ToolCall(i, name, json.dumps(args)) for i, name, args in CALLS)),
        ModelReply(FINAL),
    ]


def replies(build: str) -> list:
    return list(REACT_REPLIES) if build == "react" else calling_replies()


def write_shop(folder: Path) -> Path:
    path = folder / "shop.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def import_shop(folder: Path, monkeypatch):
    """shop.py written into `folder`, which becomes the working directory and importable."""
    write_shop(folder)
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("shop", None)  # another test's shop.py may be imported already
    return importlib.import_module("shop")


def record_shop(folder: Path, kind: str, monkeypatch) -> tuple[Path, str]:
    """A recording of the shop agent of `kind` (one of KINDS) made the way a user's own code makes it,
    with a TraceWriter, under invoke or ainvoke: (the trace, the agent's MODULE:FUNCTION)."""
    from executor import ScriptedModel
    from tracer import TraceWriter

    shop = import_shop(folder, monkeypatch)
    build = kind.removesuffix("-awaited")
    spec = f"shop:{build}"
    path = folder / f"{kind}.jsonl"
    executor = getattr(shop, build)(ScriptedModel(replies(build)))
    with TraceWriter(path, agent=spec) as writer:
        if kind.endswith("-awaited"):
            asyncio.run(executor.ainvoke({"input": QUESTION}, [writer]))
        else:
            executor.invoke({"input": QUESTION}, [writer])
    return path, spec
