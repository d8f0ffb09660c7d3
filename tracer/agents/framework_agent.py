"""A user's agent built with another framework, named MODULE:ATTR: the object (or a function returning it) and its adapter."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .frameworks import FrameworkAdapter, adapter_for, framework_of
from .scenario_registry import UnknownAgent
from .trust import AgentRef
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


# Keys a module may need just to build its client at import (ChatOpenAI() with no key raises there). Offline,
# where every model call is answered from a recording, a placeholder stands in for a key the user has not set.
PLACEHOLDER_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY")
PLACEHOLDER = "loopscope-offline-placeholder-key"


@contextmanager
def placeholder_keys() -> Iterator[list[str]]:
    """Unset model keys set to a placeholder for the block (and unset again after): nothing is sent with them,
    and a module that builds its client at import can be imported without the user's real key."""
    added = [name for name in PLACEHOLDER_KEYS if not os.environ.get(name)]
    for name in added:
        os.environ[name] = PLACEHOLDER
    try:
        yield added
    finally:
        for name in added:
            os.environ.pop(name, None)


def load_framework_agent(spec: str | AgentRef, offline: bool = False) -> FrameworkAgent | None:
    """The framework agent MODULE:ATTR names (the caller has checked it is trusted), or None when it names
    loopscope's own build(model); UnknownAgent with a one-line reason when it cannot be imported or built.
    `offline`: its model will be answered from a recording, so a missing key gets a placeholder at import."""
    with placeholder_keys() if offline else nullcontext():
        return _loaded(spec)


def _loaded(agent: str | AgentRef) -> FrameworkAgent | None:
    spec = agent.spec if isinstance(agent, AgentRef) else agent
    named, source = import_build(agent)
    try:
        built = framework_agent(named)
    except Exception as error:  # the user's factory failed: theirs to fix, said in one line
        raise UnknownAgent(f"agent {spec!r}: calling it raised {type(error).__name__}: {error}") from None
    adapter = adapter_for(built) if built is not None else None
    return FrameworkAgent(spec, built, adapter, source) if adapter is not None else None
