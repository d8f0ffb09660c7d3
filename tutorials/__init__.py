"""Runnable scenarios (question, tools, replies) built on the executor, each with a recorded fixture."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from .scenario import FIXTURES_DIR, Scenario

# Scenario name -> (module, attribute). A module (and the executor parts it builds on) is imported
# when one of its scenarios is first looked up: opening one tutorial does not load all nineteen.
_HOMES = {
    "rose-pricing": ("rose_pricing", "SCENARIO"),
    "invalid-tool": ("invalid_tool", "SCENARIO"),
    "parse-error-off": ("parse_error", "SCENARIO_OFF"),
    "parse-error-on": ("parse_error", "SCENARIO_ON"),
    "tool-error-unhandled": ("tool_error", "SCENARIO_UNHANDLED"),
    "tool-error-handled": ("tool_error", "SCENARIO_HANDLED"),
    "tool-error-retried": ("tool_error", "SCENARIO_RETRIED"),
    "iteration-limit": ("iteration_limit", "SCENARIO"),
    "rate-limit": ("rate_limit", "SCENARIO"),
    "fallback-model": ("fallback", "SCENARIO_FALLBACK"),
    "fallback-rules": ("fallback", "SCENARIO_DEGRADED"),
    "rose-pricing-langchain": ("langchain_rose", "SCENARIO"),
    "parallel-tools": ("parallel_tools", "SCENARIO"),
    "context-budget-trim": ("context_budget", "SCENARIO_TRIM"),
    "context-budget-summarize": ("context_budget", "SCENARIO_SUMMARIZE"),
    "structured-output": ("structured_output", "SCENARIO"),
    "langchain-retry-jitter": ("langchain_retry", "SCENARIO_JITTER"),
    "langchain-retry-steady": ("langchain_retry", "SCENARIO_STEADY"),
    "langchain-retry-loopscope": ("langchain_retry", "SCENARIO_LOOPSCOPE"),
    "mcp-search": ("mcp_search", "SCENARIO"),
    "four-loops-loopscope": ("four_loops", "SCENARIO_LOOPSCOPE"),
    "four-loops-langgraph": ("four_loops", "SCENARIO_LANGGRAPH"),
    "four-loops-openai-agents": ("four_loops", "SCENARIO_OPENAI_AGENTS"),
    "four-loops-pydantic-ai": ("four_loops", "SCENARIO_PYDANTIC_AI"),
    "own-agent": ("own_agent", "SCENARIO"),
}


class _Scenarios(Mapping[str, Scenario]):
    """Every scenario by name, in teaching order; each is built on first lookup."""

    def __init__(self) -> None:
        self._loaded: dict[str, Scenario] = {}

    def __getitem__(self, name: str) -> Scenario:
        if name not in self._loaded:
            module, attribute = _HOMES[name]  # KeyError for an unknown name, as a dict would
            scenario = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
            assert scenario.name == name, f"{module}.{attribute} is {scenario.name!r}, listed as {name!r}"
            self._loaded[name] = scenario
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_HOMES)

    def __len__(self) -> int:
        return len(_HOMES)

    def __contains__(self, name: object) -> bool:
        return name in _HOMES


SCENARIOS: Mapping[str, Scenario] = _Scenarios()


def get_scenario(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise KeyError(f"Unknown scenario {name!r}; available: {', '.join(sorted(SCENARIOS))}") from None


__all__ = ["FIXTURES_DIR", "SCENARIOS", "Scenario", "get_scenario"]
