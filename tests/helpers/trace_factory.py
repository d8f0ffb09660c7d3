"""Small traces recorded on the spot for the debugger tests: deterministic clock, fixed run id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from executor import ChatModel, ManualClock, ScriptedModel, Tool
from tracer.trace.writer import TraceWriter
from tutorials.rose_pricing import REPLIES, SCENARIO

# Round 2 misspells the tool, round 3 asks again correctly, then the usual ending.
INVALID_TOOL_REPLIES = [
    REPLIES[0],
    " 我来算一下。\nAction: Calculater\nAction Input: 25 * 1.05",
    REPLIES[1],
    REPLIES[2],
    REPLIES[3],
]


def record(
    path: Path,
    replies: Sequence[str],
    build_tools: Callable[[ChatModel], list[Tool]] | None = None,
    run_id: str = "test-run",
) -> Path:
    scenario = replace(SCENARIO, build_tools=build_tools or SCENARIO.build_tools)
    executor = scenario.executor(ScriptedModel(replies), clock=ManualClock(tick=0.001), run_id_factory=lambda: run_id)
    with TraceWriter(path, scenario="test") as writer:
        try:
            executor.invoke(scenario.inputs(), [writer])
        except Exception:  # a failing run still leaves its trace, ending in chain_error
            pass
    return path


def with_search_result(text: str) -> Callable[[ChatModel], list[Tool]]:
    """The rose tools, except that Search returns `text` (untrusted or huge)."""

    def build(model: ChatModel) -> list[Tool]:
        tools = SCENARIO.build_tools(model)
        search = tools[0]
        tools[0] = Tool(name=search.name, description=search.description, func=lambda _query: text, deterministic=False)
        return tools

    return build
