"""Your own agent: a small shop agent written into a folder of its own, whose tool functions the learner steps into."""

from __future__ import annotations

import atexit
import importlib.util
import shutil
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

from .scenario import Scenario

AGENT_FILE = "my_shop.py"
# What the learner's own module looks like: loopscope writes it out of its own package, so that the
# debugger treats it as the user's code (its lines can be stepped through, as any user's tool's).
AGENT_SOURCE = '''"""my_shop: a small agent of your own (loopscope's own-agent tutorial wrote this file)."""

import asyncio

from executor import AgentExecutor, create_react_agent, tool

PRICES = {"rose": 2.5, "tulip": 1.25}


@tool
def quote(item: str, quantity: int) -> str:
    """The price of QUANTITY of ITEM, e.g. {"item": "rose", "quantity": 12}."""
    each = PRICES.get(item, 1.0)
    total = each * quantity
    if quantity >= 10:
        total = total * 0.9  # ten or more: 10% off
    return f"{quantity} {item}s: {total:.2f} yuan"


@tool
async def stock(item: str) -> str:
    """How many of ITEM are in stock."""
    await asyncio.sleep(0)  # your database call would be awaited here
    left = {"rose": 40}.get(item, 0)
    return f"{item}: {left} in stock"


TOOLS = [quote, stock]


def build(model):
    return AgentExecutor(agent=create_react_agent(model, TOOLS), tools=TOOLS)
'''

QUESTION = "What do 12 roses cost, and are there enough in stock?"
REPLIES = (
    ' I should price them first.\nAction: quote\nAction Input: {"item": "rose", "quantity": 12}',
    " Are there enough of them?\nAction: stock\nAction Input: rose",
    " I now know the final answer.\nFinal Answer: 12 roses cost 27.00 yuan, and 40 are in stock.",
)


def write_agent(folder: Path) -> Path:
    """Write my_shop.py into `folder` (made if missing) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / AGENT_FILE
    path.write_text(AGENT_SOURCE, encoding="utf-8")
    return path


@cache
def agent_folder() -> Path:
    """The folder this process writes the scenario's agent into (verify, fixtures, record): a fresh temporary
    one, made once and removed when the process ends. The live tutorial writes the learner's own, which stays."""
    folder = Path(tempfile.mkdtemp(prefix="loopscope-own-agent-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def agent_module() -> ModuleType:
    """my_shop.py written into agent_folder() and imported from there (once per process)."""
    path = write_agent(agent_folder())
    spec = importlib.util.spec_from_file_location("my_shop", path)
    assert spec is not None and spec.loader is not None  # a .py file we have just written
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCENARIO = Scenario(
    name="own-agent",
    title="Your own agent: two tools of your own, one async, stepped into line by line",
    question=QUESTION,
    build_tools=lambda model: list(agent_module().TOOLS),
    replies=REPLIES,
)
