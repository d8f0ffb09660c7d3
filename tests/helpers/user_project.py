"""A user's agent project written into a temporary directory: three tools (structured, async, LangChain-shaped) and build(model)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

AGENT_SOURCE = '''"""My florist agent."""
import asyncio

from executor import AgentExecutor, create_react_agent, tool


@tool
def price(item: str, quantity: int) -> str:
    """Price of QUANTITY items, e.g. {"item": "rose", "quantity": 12}."""
    each = {"rose": 2.5, "tulip": 1.25}.get(item, 1.0)
    total = each * quantity
    return f"{quantity} {item}s cost {total:.2f}"


@tool
async def stock(item: str) -> str:
    """How many of an item are in stock."""
    await asyncio.sleep(0)
    return f"{item}: 40 in stock"


class Discount:
    """Shaped like a LangChain tool: name, description, invoke."""

    name = "Discount"
    description = "Today's discount code."

    def invoke(self, tool_input, config=None):
        return "SPRING10"


def build(model):
    tools = [price, stock, Discount()]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools)
'''

REPLIES = (
    'Thought: price them\nAction: price\nAction Input: {"item": "rose", "quantity": 12}',
    "Thought: is there stock\nAction: stock\nAction Input: rose",
    "Thought: any discount\nAction: Discount\nAction Input: today",
    "Thought: done\nFinal Answer: 12 roses cost 30.00, 40 in stock, code SPRING10",
)
QUESTION = "What do 12 roses cost?"


def write_project(folder: Path) -> Path:
    """Write florist.py into `folder` and return its path."""
    path = folder / "florist.py"
    path.write_text(AGENT_SOURCE, encoding="utf-8")
    return path


def recorded_florist(folder: Path, monkeypatch) -> tuple[Path, Path, Callable[[str], int]]:
    """florist.py written into `folder` (made importable, the working directory) and a recording of it:
    (the recording, the source, line_of(text) = the number of the first line containing text)."""
    from executor import ScriptedModel
    from tracer.trace.writer import TraceWriter

    source = write_project(folder)
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("florist", None)  # another test's florist.py may be imported already
    module = importlib.import_module("florist")
    recorded = folder / "run.jsonl"
    with TraceWriter(recorded, agent="florist:build") as writer:
        module.build(ScriptedModel(REPLIES)).invoke({"input": QUESTION}, [writer])
    lines = source.read_text().splitlines()
    return recorded, source, lambda text: next(n for n, line in enumerate(lines, 1) if text in line)
