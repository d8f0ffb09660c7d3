"""A tool-calling agent whose two tools (one async) the model asks for at once, recorded in a temp project."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

AGENT = '''"""Two tools a tool-calling model asks for at once."""
import asyncio

from executor import AgentExecutor, create_tool_calling_agent, tool

RAN = []  # which tool functions have started, in order


@tool
def quote(item: str, quantity: int) -> str:
    """The price of QUANTITY items."""
    RAN.append("quote")
    each = {"rose": 2.5}.get(item, 1.0)
    total = each * quantity
    return f"{total:.2f}"


@tool
async def count(item: str) -> str:
    """How many are in stock."""
    RAN.append("count")
    await asyncio.sleep(0)
    left = 40
    return f"{left} {item}s"


def build(model):
    tools = [quote, count]
    return AgentExecutor(agent=create_tool_calling_agent(model, tools), tools=tools)
'''


def recorded_parallel(folder: Path, monkeypatch) -> tuple[Path, ModuleType, Callable[[str], int]]:
    """parallel.py in `folder` (the working directory, importable), recorded with both calls in one reply:
    (the trace, the module, line_of(text) = the first line of parallel.py containing text)."""
    from executor import ModelReply, ScriptedModel, ToolCall
    from tracer.trace.writer import TraceWriter

    (folder / "parallel.py").write_text(AGENT, encoding="utf-8")
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("parallel", None)
    module = importlib.import_module("parallel")
    calls = (
        ToolCall("c_quote", "quote", json.dumps({"item": "rose", "quantity": 12})),
        ToolCall("c_count", "count", json.dumps({"item": "rose"})),
    )
    replies = [ModelReply("", tool_calls=calls), ModelReply("30.00 yuan, 40 in stock")]
    trace = folder / "run.jsonl"
    with TraceWriter(trace, agent="parallel:build") as writer:
        module.build(ScriptedModel(replies)).invoke({"input": "12 roses?"}, [writer])
    module.RAN.clear()
    lines = AGENT.splitlines()
    return trace, module, lambda text: next(n for n, line in enumerate(lines, 1) if text in line)
