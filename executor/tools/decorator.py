"""The `@tool` decorator: a Tool made from a function, its name, docstring and type hints."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, overload

from pydantic import BaseModel

from .args import schema_from_function
from .tool import Tool


@overload
def tool(func: Callable[..., Any], /) -> Tool: ...
@overload
def tool(
    name: str | None = None,
    /,
    *,
    description: str | None = None,
    args_schema: type[BaseModel] | None = None,
    **options: Any,
) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    name_or_func: Any = None,
    /,
    *,
    description: str | None = None,
    args_schema: type[BaseModel] | None = None,
    **options: Any,
) -> Any:
    """LangChain: langchain_core.tools.tool. Use as `@tool`, `@tool("Name")` or `@tool(return_direct=True)`.

    The name is the function's unless given; the description is its docstring unless given;
    the arguments schema comes from its type hints unless `args_schema` is given. Other options
    (return_direct, handle_tool_error, deterministic, retry_policy, ...) go to Tool.
    """
    if callable(name_or_func) and not isinstance(name_or_func, str):
        return _make_tool(name_or_func, None, description, args_schema, options)
    if name_or_func is not None and not isinstance(name_or_func, str):
        raise TypeError(f"@tool takes a function or a tool name, got {type(name_or_func).__name__}")

    def decorate(func: Callable[..., Any]) -> Tool:
        return _make_tool(func, name_or_func, description, args_schema, options)

    return decorate


def _make_tool(
    func: Callable[..., Any],
    name: str | None,
    description: str | None,
    args_schema: type[BaseModel] | None,
    options: dict[str, Any],
) -> Tool:
    if not callable(func):
        raise TypeError(f"@tool decorates a function, got {type(func).__name__}")
    if inspect.isgeneratorfunction(func) or inspect.isasyncgenfunction(func):
        raise TypeError(
            f"@tool cannot make a tool of the generator {func.__qualname__}: a tool returns "
            "its observation; build an event-yielding tool with Tool(name, description, func)"
        )
    name = name or func.__name__
    description = description if description is not None else inspect.getdoc(func)
    if not description:
        raise ValueError(
            f"@tool: {func.__qualname__} has no docstring; write one (the model reads it "
            "to choose the tool) or pass description=..."
        )
    schema = args_schema or schema_from_function(name, func)
    return Tool(name=name, description=description, func=func, args_schema=schema, **options)
