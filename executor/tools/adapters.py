"""What the tools list accepts: Tools, @tool functions, and LangChain tools (duck-typed), nothing else."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from ..callee import callee_of
from .tool import Tool

EXPECTED = (
    "an executor.Tool, a function decorated with @tool, or a LangChain tool "
    "(an object with name, description and invoke)"
)


def as_tools(tools: Sequence[Any]) -> list[Tool]:
    """Every entry as a Tool; anything else is refused with a message naming its position."""
    if isinstance(tools, (str, bytes, dict)) or not isinstance(tools, Sequence):
        raise TypeError(f"tools must be a list of tools, got {_describe(tools)}; expected a list of {EXPECTED}")
    return [as_tool(candidate, f"tools[{index}]") for index, candidate in enumerate(tools)]


def as_tool(candidate: Any, where: str = "tool") -> Tool:
    if isinstance(candidate, Tool):
        return candidate
    if is_langchain_tool(candidate):
        return from_langchain_tool(candidate)
    raise TypeError(f"{where} is {_describe(candidate)}; expected {EXPECTED}")


def is_langchain_tool(candidate: Any) -> bool:
    """LangChain's BaseTool interface, duck-typed so that loopscope does not depend on LangChain."""
    return (
        not isinstance(candidate, type)
        and isinstance(getattr(candidate, "name", None), str)
        and isinstance(getattr(candidate, "description", None), str)
        and callable(getattr(candidate, "invoke", None))
    )


def from_langchain_tool(lc_tool: Any) -> Tool:
    """A Tool that runs a LangChain tool through its own invoke / ainvoke.

    Its args_schema (when it is a pydantic model) validates the Action Input first, so a bad
    input is an observation here rather than LangChain's ValidationError. Its answers are
    taken as non-deterministic: a replay reads them from the recording instead of re-running it.
    """
    schema = getattr(lc_tool, "args_schema", None)
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        schema = None  # no schema (or a JSON-schema dict): the raw Action Input goes to invoke
    invoke, ainvoke = lc_tool.invoke, getattr(lc_tool, "ainvoke", None)
    if getattr(lc_tool, "func", True) is None and ainvoke is not None:
        invoke = ainvoke  # an async-only LangChain tool cannot invoke() synchronously: await ainvoke
    if schema is None:
        func, coroutine = invoke, ainvoke
    else:
        func, coroutine = _keywords_to_dict(invoke), ainvoke and _keywords_to_dict(ainvoke)
    tool = Tool(
        lc_tool.name,
        lc_tool.description,
        func,
        args_schema=schema,
        coroutine=coroutine,
        return_direct=bool(getattr(lc_tool, "return_direct", False)),
        deterministic=False,
    )
    tool.callee = callee_of(lc_tool)  # its function (or _run), not our lambda
    return tool


def _keywords_to_dict(call: Callable[[Any], Any]) -> Callable[..., Any]:
    # LangChain's invoke takes the arguments as one dict: invoke({"a": 1, "b": 2})
    return lambda **arguments: call(arguments)


def _describe(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__qualname__} (pass an instance, not the class)"
    if inspect.isfunction(value) or inspect.ismethod(value):
        return f"the function {value.__qualname__} (decorate it with @tool to make it a tool)"
    text = repr(value)
    shown = text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(value).__name__} ({shown})"
