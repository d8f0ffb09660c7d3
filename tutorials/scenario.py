"""What a scenario is: a question, the tools, the model's scripted replies and the executor settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the executor loads when a scenario first runs, not when a tutorial is listed or opened
    from executor import AgentExecutor, ChatModel, ModelReply, Tool
    from executor.clock import Clock


def _fixtures_dir() -> tuple[Path, bool]:
    """(where the recorded fixtures are, whether that is the repository's fixtures/ folder).

    In a checkout they are fixtures/ at the top; an installed wheel carries a copy as package
    data (tutorials/fixtures), which is read, never written.
    """
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "fixtures").is_dir():
        return checkout / "fixtures", True
    from importlib import resources  # an installed wheel's only: ~7 ms of start-up in a checkout

    return Path(str(resources.files("tutorials") / "fixtures")), False


FIXTURES_DIR, FIXTURES_IN_REPO = _fixtures_dir()


@dataclass(frozen=True)
class Scenario:
    """A runnable agent setup. `build_tools(model)` gets the model so tools like the calculator can use it."""

    name: str
    title: str
    question: str
    build_tools: Callable[[ChatModel], list[Tool]]
    replies: Sequence[str | ModelReply]  # what the scripted model answers, in call order, when recording
    settings: dict[str, Any] = field(default_factory=dict)
    fixture_name: str = ""
    expect_error: bool = False  # the run is meant to die (its trace ends in chain_error)
    # Settings that must be new for every run because they hold state: a rate limiter on the
    # run's own clock, a retry policy whose jitter source starts from the same seed each time.
    per_run_settings: Callable[[Clock], dict[str, Any]] | None = None
    # Puts a simulated endpoint (e.g. one that answers HTTP 429) in front of the scripted model.
    # Only the scripted model gets it: a replay's model raises the recorded failures by itself.
    scripted_endpoint: Callable[[ChatModel], ChatModel] | None = None
    # A tool-calling scenario: builds the agent (create_tool_calling_agent with its system prompt,
    # response format, budget) instead of the ReAct one.
    build_agent: Callable[[ChatModel, list[Tool]], Any] | None = None
    # Tools that take time on the run's clock (a manual one in recordings and replays, so "slow" is deterministic).
    build_clocked_tools: Callable[[ChatModel, Clock], list[Tool]] | None = None
    # A fixture recorded from LangChain's own run (not loopscope's executor): runs that agent with these
    # callback handlers, its waits on this clock (`loopscope fixtures --rerecord` records it; needs the
    # `langchain` extra). Its build_tools and replies then only describe the run; nothing re-executes it.
    langchain_run: Callable[[list[Any], Clock], Any] | None = None
    # A fixture recorded from another framework's own loop (LangGraph, the OpenAI Agents SDK, pydantic-ai)
    # through its adapter (scripts/record_four_loops.py): as with langchain_run, build_tools and replies
    # only describe the run, and no run of loopscope's re-executes it.
    framework: str = ""

    @property
    def fixture(self) -> Path:
        return FIXTURES_DIR / (self.fixture_name or self.name.replace("-", "_") + ".jsonl")

    @property
    def recording(self) -> Path:
        """Where `loopscope record` writes by default: the fixture in a checkout, else the working
        directory (an installed package's files are never written)."""
        return self.fixture if FIXTURES_IN_REPO else Path.cwd() / self.fixture.name

    def inputs(self) -> dict[str, Any]:
        return {"input": self.question}

    def executor(self, model: ChatModel, tools: list[Tool] | None = None, **overrides: Any) -> AgentExecutor:
        # here, not at the top: the executor loads when a scenario first runs (see TYPE_CHECKING above)
        from executor import AgentExecutor, ScriptedModel, SystemClock, create_react_agent

        if self.scripted_endpoint is not None and isinstance(model, ScriptedModel):
            model = self.scripted_endpoint(model)
        settings = {**self.settings, **overrides}
        if tools is None and self.build_clocked_tools is not None:
            settings["clock"] = settings.get("clock") or SystemClock()
            tools = self.build_clocked_tools(model, settings["clock"])
        tools = tools if tools is not None else self.build_tools(model)
        agent = self.build_agent(model, tools) if self.build_agent else create_react_agent(model, tools)
        if self.per_run_settings is not None:
            settings["clock"] = settings.get("clock") or SystemClock()
            fresh = self.per_run_settings(settings["clock"])
            # A None override (say, a replay whose header recorded no retry policy) means
            # "nothing to add", not "switch it off": the scenario's own limiter and policy stay.
            settings = {**fresh, **{k: v for k, v in settings.items() if v is not None or k not in fresh}}
        return AgentExecutor(agent=agent, tools=tools, **settings)
