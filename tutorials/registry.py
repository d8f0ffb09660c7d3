"""The tutorials: each is one or more scenario runs (parts), their fixtures, and a notes file."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from . import SCENARIOS, Scenario
from .notes_file import LANGUAGES, TutorialNotes, load_notes

NOTES_DIR = Path(__file__).resolve().parent / "notes"


@dataclass(frozen=True)
class Tutorial:
    """A lesson. Parts are walked in order; most tutorials have one, parse-error and tool-error more."""

    name: str
    part_names: tuple[str, ...]
    # Opened on a live run rather than its recording: the lesson steps into functions, which needs live.
    live: bool = False

    @classmethod
    def of(cls, name: str, parts: tuple[Scenario, ...]) -> Tutorial:
        """A tutorial made of these scenarios as they are (a test's part with another fixture)."""
        tutorial = cls(name, tuple(part.name for part in parts))
        tutorial.__dict__["parts"] = tuple(parts)  # what the cached property below would hold
        return tutorial

    @cached_property
    def parts(self) -> tuple[Scenario, ...]:
        """The parts' scenarios, built when first asked for (listing tutorials builds none)."""
        return tuple(SCENARIOS[name] for name in self.part_names)

    @property
    def notes_path(self) -> Path:
        return NOTES_DIR / f"{self.name}.toml"

    @cached_property
    def notes(self) -> TutorialNotes:
        return load_notes(self.notes_path, list(self.part_names))

    @property
    def fixtures(self) -> tuple[Path, ...]:
        return tuple(part.fixture for part in self.parts)

    def title(self, lang: str = "en") -> str:
        return self.notes.titles[lang]

    def part_label(self, part: Scenario, lang: str = "en") -> str:
        return self.notes.part_labels[part.name][lang]


def _tutorial(name: str, *scenario_names: str, live: bool = False) -> Tutorial:
    return Tutorial(name, scenario_names, live)


# In teaching order: the happy path first, then each way the loop can go wrong.
TUTORIALS: dict[str, Tutorial] = {
    t.name: t
    for t in (
        _tutorial("rose-pricing", "rose-pricing"),
        _tutorial("invalid-tool", "invalid-tool"),
        _tutorial("parse-error", "parse-error-off", "parse-error-on"),
        _tutorial("tool-error", "tool-error-unhandled", "tool-error-handled", "tool-error-retried"),
        _tutorial("iteration-limit", "iteration-limit"),
        _tutorial("rate-limit", "rate-limit"),
        _tutorial("fallback", "fallback-model", "fallback-rules"),
        _tutorial("langchain", "rose-pricing-langchain"),
        # The tool-calling agent: the same executor, the model's native tool calls instead of ReAct text.
        _tutorial("parallel-tools", "parallel-tools"),
        _tutorial("context-budget", "context-budget-trim", "context-budget-summarize"),
        _tutorial("structured-output", "structured-output"),
        # LangChain 1.x's ToolRetryMiddleware recorded from LangChain itself, then loopscope's own retry.
        _tutorial("langchain-retry", "langchain-retry-jitter", "langchain-retry-steady", "langchain-retry-loopscope"),
        # Tools from a Model Context Protocol server: a tool list, JSON-RPC calls, answers of any shape.
        _tutorial("mcp-search", "mcp-search"),
        # The same question and tool through LangChain classic's loop and the three loops learners meet today.
        _tutorial(
            "four-loops",
            "four-loops-loopscope",
            "four-loops-langgraph",
            "four-loops-openai-agents",
            "four-loops-pydantic-ai",
        ),
        # Last: an agent of the learner's own kind, whose tool functions they step into, live.
        _tutorial("own-agent", "own-agent", live=True),
    )
}


def find_part(name: str) -> tuple[Tutorial, Scenario]:
    """A tutorial by its name (when it has one part) or one part of a tutorial by its scenario name."""
    if name in TUTORIALS:
        tutorial = TUTORIALS[name]
        if len(tutorial.parts) == 1:
            return tutorial, tutorial.parts[0]
        raise KeyError(f"tutorial {name!r} has {len(tutorial.parts)} parts; name one: {', '.join(tutorial.part_names)}")
    for tutorial in TUTORIALS.values():
        if name in tutorial.part_names:
            return tutorial, SCENARIOS[name]
    raise KeyError(f"unknown tutorial {name!r}; available: {', '.join(TUTORIALS)}")


__all__ = ["LANGUAGES", "NOTES_DIR", "TUTORIALS", "Tutorial", "find_part"]
