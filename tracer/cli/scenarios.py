"""Looking up scenarios and their fixtures for the command line, with one-line errors."""

from __future__ import annotations

import difflib
from pathlib import Path

from tutorials import SCENARIOS, Scenario

from .usage_error import UsageError


def scenario_named(name: str) -> Scenario:
    if name not in SCENARIOS:
        # A tutorial's name with several parts (parse-error) is the start of each part's name.
        parts = [known for known in sorted(SCENARIOS) if known.startswith(name + "-")]
        close = parts or difflib.get_close_matches(name, SCENARIOS, n=3)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise UsageError(f"unknown scenario {name!r}; {hint}available: {', '.join(sorted(SCENARIOS))}")
    return SCENARIOS[name]


def fixture_for(scenario: Scenario, override: str | None) -> Path:
    path = Path(override) if override else scenario.fixture
    if not path.exists():
        raise UsageError(f"no recording at {path}; record one with "
                         f"`loopscope record {scenario.name} -o {path}`")
    return path
