"""Three small weather agents, one per framework, each with a sync tool (`get_weather`, local `forecast`) and an
async one (`get_time`, local `zone`), written into a user's project with the replies that answer them offline."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from tracer.cli.live_framework import framework_live_run
from tracer.debug.framework_live import FrameworkLiveRun
from tracer.debug.step_into import LineStop

TOOLS = """
FORECASTS = {"Beijing": "sunny", "Shanghai": "light rain"}


def get_weather(city: str) -> str:
    \"\"\"Today's weather for one city.\"\"\"
    forecast = FORECASTS[city]
    return f"{city}: {forecast}"


async def get_time(city: str) -> str:
    \"\"\"The time now in one city.\"\"\"
    zone = {"Beijing": "UTC+8", "Shanghai": "UTC+8"}[city]
    return f"{city}: 12:00 {zone}"
"""

SOURCES = {
    "langgraph": """
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
"""
    + TOOLS
    + """

agent = create_agent(FakeMessagesListChatModel(responses=[]), tools=[get_weather])
""",
    "openai_agents": """
from agents import Agent, function_tool
"""
    + TOOLS
    + """

agent = Agent(
    name="weather",
    instructions="Answer about the weather.",
    tools=[function_tool(get_weather), function_tool(get_time)],
    model="gpt-4o-mini",
)
""",
    "pydantic_ai": """
from pydantic_ai import Agent
"""
    + TOOLS
    + """

agent = Agent("openai:gpt-4o-mini", instructions="Answer about the weather.", tools=[get_weather, get_time])
""",
}
FRAMEWORKS = tuple(SOURCES)
QUESTION = "What is the weather in Beijing?"


def replies_for(tool: str, cities: tuple[str, ...] = ("Beijing",)) -> list:
    """One reply calling the tool once per city (in parallel when two), then the answer: --replies FILE.json."""
    calls = [{"id": f"call_{n}", "name": tool, "arguments": {"city": city}} for n, city in enumerate(cities, 1)]
    return [{"tool_calls": calls}, "It is sunny in Beijing."]


def module_name(framework: str) -> str:
    return f"weather_{framework}"


def write_project(
    folder: Path, framework: str, tool: str = "get_weather", cities: tuple[str, ...] = ("Beijing",)
) -> tuple[str, Path, Path]:
    """The agent's module and replies.json in `folder`: (MODULE:ATTR as a path, the source, the replies)."""
    sys.modules.pop(module_name(framework), None)  # another test's copy of the module may be imported
    source = folder / f"{module_name(framework)}.py"
    source.write_text(textwrap.dedent(SOURCES[framework]).lstrip(), encoding="utf-8")
    replies = folder / f"replies_{tool}.json"
    replies.write_text(json.dumps(replies_for(tool, cities)), encoding="utf-8")
    return f"{source.name}:agent", source, replies


def line_of(source: Path, text: str) -> int:
    """The number of the first line of `source` containing `text`."""
    return next(n for n, line in enumerate(source.read_text().splitlines(), 1) if text in line)


def cli_live_run(
    folder: Path, framework: str, tool: str = "get_weather", cities: tuple[str, ...] = ("Beijing",)
) -> tuple[FrameworkLiveRun, Path]:
    """The run `loopscope debug --live MODULE:ATTR --input ... --replies FILE` makes (folder is the cwd)."""
    spec, source, replies = write_project(folder, framework, tool, cities)
    args = argparse.Namespace(
        live=spec, model=None, replies=str(replies), input=QUESTION, inputs=None, record=str(folder / "live.jsonl")
    )
    run = framework_live_run(args)
    assert run is not None
    return run, source


def step_into_every_tool(run: FrameworkLiveRun) -> tuple[list[str], list[tuple[str, int, dict[str, str]]]]:
    """Drive the live run to its end, pressing `s` at each tool_start (refused nowhere): the events' kinds, and
    each line the stepped tools stopped at as (function, line, locals). The run is closed after."""
    kinds: list[str] = []
    stops: list[tuple[str, int, dict[str, str]]] = []
    try:
        while (got := run.pull()) is not None:
            if isinstance(got, LineStop):
                stops.append((got.frame.function, got.frame.line, dict(got.frame.locals)))
                continue
            kinds.append(got[0].kind)
            if got[0].kind == "tool_start":
                assert run.why_not_step_into(got[0]) is None
                run.step_into(got[0])
    finally:
        run.close()
    return kinds, stops
