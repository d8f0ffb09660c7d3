"""Runnable scenarios (question, tools, replies) built on the executor, each with a recorded fixture."""

from . import (context_budget, fallback, invalid_tool, iteration_limit, langchain_rose, parallel_tools, parse_error,
               rate_limit, structured_output, tool_error)
from .rose_pricing import SCENARIO as ROSE_PRICING
from .scenario import FIXTURES_DIR, Scenario

SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    ROSE_PRICING,
    invalid_tool.SCENARIO,
    parse_error.SCENARIO_OFF,
    parse_error.SCENARIO_ON,
    tool_error.SCENARIO_UNHANDLED,
    tool_error.SCENARIO_HANDLED,
    tool_error.SCENARIO_RETRIED,
    iteration_limit.SCENARIO,
    rate_limit.SCENARIO,
    fallback.SCENARIO_FALLBACK,
    fallback.SCENARIO_DEGRADED,
    langchain_rose.SCENARIO,
    parallel_tools.SCENARIO,
    context_budget.SCENARIO_TRIM,
    context_budget.SCENARIO_SUMMARIZE,
    structured_output.SCENARIO,
)}


def get_scenario(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise KeyError(f"Unknown scenario {name!r}; available: {', '.join(sorted(SCENARIOS))}") from None


__all__ = ["FIXTURES_DIR", "SCENARIOS", "Scenario", "get_scenario"]
