"""The objects a user's function names in its code (a module global, a closure's variable), found without evaluating."""

from __future__ import annotations

import inspect
from typing import Any


def named_by(function: Any, kind: type) -> list[Any]:
    """The objects of type `kind` that `function`'s own code names: an agent that a guardrail or a tool runs by hand
    (the Agents SDK's `await Runner.run(guardrail_agent, input)`, pydantic-ai's agent delegation `await
    other_agent.run(...)` in a tool). Its model is asked inside the recorded run, so it is recorded, and answered
    offline, as the run's own is. Only the names the code uses are looked up (inspect.getclosurevars reads the
    code's names and the function's globals and cells); nothing is evaluated."""
    target = inspect.unwrap(function) if callable(function) else None
    if not inspect.isfunction(target):  # text instructions, a callable object, a builtin: no code of its own to read
        return []
    try:
        named = inspect.getclosurevars(target)
    except (TypeError, ValueError):
        return []
    return [v for v in [*named.nonlocals.values(), *named.globals.values()] if isinstance(v, kind)]
