"""A user's agent built with another framework, named MODULE:ATTR: the object (or a function returning it) and its adapter."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .frameworks import FrameworkAdapter, adapter_for, framework_of
from .scenario_registry import UnknownAgent
from .user_agent import file_hash, import_build


@dataclass
class FrameworkAgent:
    """The user's framework agent, ready to run: what MODULE:ATTR named, the object, and who runs it."""

    spec: str
    agent: Any
    adapter: FrameworkAdapter
    source: Path | None = None

    def header_meta(self) -> dict[str, Any]:
        return {"agent": self.spec, "agent_hash": file_hash(self.source), "framework": self.adapter.name}


def framework_agent(named: Any) -> Any | None:
    """The framework agent `named` is, or returns when called with no arguments; None when it is neither
    (loopscope's own build(model) takes a model, so it is never called here)."""
    if framework_of(named) is not None:
        return named
    if not callable(named) or _needs_arguments(named):
        return None
    built = named()
    return built if framework_of(built) is not None else None


def _needs_arguments(function: Any) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters)


def load_framework_agent(spec: str) -> FrameworkAgent | None:
    """The framework agent MODULE:ATTR names (the caller has checked it is trusted), or None when it names
    loopscope's own build(model); UnknownAgent with a one-line reason when it cannot be imported or built."""
    named, source = import_build(spec)
    try:
        agent = framework_agent(named)
    except Exception as error:  # the user's factory failed: theirs to fix, said in one line
        raise UnknownAgent(f"agent {spec!r}: calling it raised {type(error).__name__}: {error}") from None
    adapter = adapter_for(agent) if agent is not None else None
    return FrameworkAgent(spec, agent, adapter, source) if adapter is not None else None
