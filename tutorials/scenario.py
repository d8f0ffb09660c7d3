"""What a scenario is: a question, the tools, the model's scripted replies and the executor settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from executor import AgentExecutor, ChatModel, Tool, create_react_agent

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"


@dataclass(frozen=True)
class Scenario:
    """A runnable agent setup. `build_tools(model)` gets the model so tools like the calculator can use it."""

    name: str
    title: str
    question: str
    build_tools: Callable[[ChatModel], list[Tool]]
    replies: Sequence[str]  # what the scripted model answers, in call order, when recording
    settings: dict[str, Any] = field(default_factory=dict)
    fixture_name: str = ""
    expect_error: bool = False  # the run is meant to die (its trace ends in chain_error)

    @property
    def fixture(self) -> Path:
        return FIXTURES_DIR / (self.fixture_name or self.name.replace("-", "_") + ".jsonl")

    def inputs(self) -> dict[str, Any]:
        return {"input": self.question}

    def executor(self, model: ChatModel, tools: list[Tool] | None = None, **overrides: Any) -> AgentExecutor:
        tools = tools if tools is not None else self.build_tools(model)
        agent = create_react_agent(model, tools)
        return AgentExecutor(agent=agent, tools=tools, **{**self.settings, **overrides})
