"""The context object (Agents SDK) or deps (pydantic-ai) a recorded run is given: the type the agent declares, made bare."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Iterable
from typing import Any

from ..i18n import Message, Said


class ContextNeeded(Said, TypeError):
    """The agent declares a context (or deps) type that cannot be made with no arguments."""


def made_bare(declared: type, what: str, agent: str | None) -> Any:
    """An instance of the agent's declared context or deps type, made with no arguments.

    loopscope is handed only MODULE:ATTR and a question, never the object the user's application passes to
    `Runner.run(context=...)` or `agent.run(deps=...)`; without one, every tool and dynamic prompt that reads it
    fails on None, deep in the run. A type whose fields all have defaults is the one a run can be given; one
    that cannot is said before the run, with what to do."""
    try:
        return declared()
    except Exception as error:  # a required field, most often: the user's own class says why
        who = (
            Message("cli.framework.agent_named", {"agent": repr(agent)})
            if agent
            else Message("cli.framework.the_agent")
        )
        fields = {"who": who, "what": what, "name": declared.__name__, "error_type": type(error).__name__}
        raise ContextNeeded(Message("cli.framework.context_needed", fields | {"error": str(error)})) from None


def declared_context(generics: Iterable[Any], functions: Iterable[Callable[..., Any]], wrapper: type) -> type | None:
    """The context type an Agents SDK agent declares: `Agent[Ctx](...)`'s type argument (Python keeps it on the
    instance as __orig_class__), else the `Ctx` of a tool's or a dynamic instructions function's first parameter
    annotated `wrapper[Ctx]` (RunContextWrapper). Annotations left as strings are not evaluated: untrusted text
    never is, and a module that postpones them gives its agents' type argument or no context, as before."""
    for agent in generics:
        found = _first_class(typing.get_args(getattr(agent, "__orig_class__", None)))
        if found is not None:
            return found
    for function in functions:
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):  # a builtin or a callable object without a signature
            continue
        hint = parameters[0].annotation if parameters else None
        if typing.get_origin(hint) is wrapper:
            found = _first_class(typing.get_args(hint))
            if found is not None:
                return found
    return None


def _first_class(arguments: tuple[Any, ...]) -> type | None:
    # A TypeVar, Any or a string is no class to make: the agent then runs without a context, as before.
    first = arguments[0] if arguments else None
    return first if isinstance(first, type) and first not in (type(None), typing.Any) else None
