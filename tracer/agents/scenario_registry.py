"""Where replay finds the agent a trace names: scenarios registered by name, never imported from here.

A trace's header says which agent ran (`scenario: rose-pricing`). Replay rebuilds it through
this registry, which is filled by `register_scenarios` or, on first use, from the
`loopscope.scenarios` entry points (loopscope's own tutorials register themselves that way in
pyproject.toml). So replay works for any package's scenarios and imports none of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any, Protocol

from executor import AgentExecutor, ChatModel

ENTRY_POINT_GROUP = "loopscope.scenarios"
MAX_LISTED = 8  # scenario names an unknown-scenario error lists in full


class ReplayableScenario(Protocol):
    """What replay needs of a scenario: its name and a way to build its executor around a model."""

    name: str

    def executor(self, model: ChatModel, tools: Any = None, **settings: Any) -> AgentExecutor: ...


class UnknownAgent(LookupError):
    """The trace names an agent that is not registered (or names none)."""


_registered: dict[str, ReplayableScenario] = {}
_entry_points_loaded = False


def register_scenarios(scenarios: Mapping[str, ReplayableScenario]) -> None:
    """Make these scenarios available to replay by name (later registrations win)."""
    _registered.update(scenarios)


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            found = entry.load()
        except Exception:  # a broken plugin must not hide the other scenarios
            continue
        if isinstance(found, Mapping):
            for name, scenario in found.items():
                _registered.setdefault(name, scenario)


def registered_scenarios() -> dict[str, ReplayableScenario]:
    _load_entry_points()
    return dict(_registered)


def find_scenario(name: str) -> ReplayableScenario:
    scenarios = registered_scenarios()
    if name not in scenarios:
        known = sorted(scenarios)
        # A tutorial's name with several parts (parse-error) is the start of each part's name.
        close = [k for k in known if k.startswith(name + "-")] or difflib.get_close_matches(name, known, n=3)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        # A one-line error: the whole list while it is short, else how to see it.
        listed = ", ".join(known) if len(known) <= MAX_LISTED else f"{len(known)} scenarios (`loopscope tutorial list`)"
        raise UnknownAgent(f"unknown scenario {name!r}; {hint}available: {listed or '(none)'}")
    return scenarios[name]
