"""A tool's arguments: a pydantic schema (from type hints or given) and the Action Input parsed against it."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, Optional, get_type_hints

from pydantic import BaseModel, ValidationError, create_model

SINGLE_INPUT_FIELD = "tool_input"  # LangChain: a Tool without args_schema has args {"tool_input": string}


class ToolInputError(ValueError):
    """The Action Input does not fit the tool's arguments; the message says what to write instead."""


@functools.lru_cache(maxsize=1024)  # building a pydantic model is slow; replays rebuild the same tools often
def single_string_schema(name: str, field: str = SINGLE_INPUT_FIELD) -> type[BaseModel]:
    """The schema of a tool that takes the raw Action Input as one string."""
    fields: dict[str, Any] = {field: (str, ...)}  # Any: a ** of a narrower dict would be matched against __config__ too
    return create_model(_schema_name(name), **fields)


def schema_from_function(name: str, func: Callable[..., Any]) -> type[BaseModel]:
    """LangChain: create_schema_from_function. One field per parameter, typed by its hint
    (no hint: any JSON value, or the raw string for a one-parameter function)."""
    signature = inspect.signature(func)
    try:
        hints = get_type_hints(func, include_extras=True)
    except Exception as error:  # an unresolvable forward reference: say which function
        raise TypeError(f"tool {name!r}: cannot read the type hints of {func.__qualname__}: {error}") from None
    fields: dict[str, Any] = {}
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"tool {name!r}: *{param.name} cannot be described to a model; name each argument")
        default = ... if param.default is param.empty else param.default
        hint = hints.get(param.name, str if len(signature.parameters) == 1 else Any)
        fields[param.name] = (hint, default)
    return create_model(_schema_name(name), **fields)


def takes_raw_string(schema: type[BaseModel]) -> bool:
    """A schema with one str field takes the Action Input as it is; any other takes a JSON object."""
    fields = schema.model_fields
    return len(fields) == 1 and next(iter(fields.values())).annotation in (str, Optional[str])  # noqa: UP045 (pydantic keeps Optional[str] as written; str | None is another object)


def parse_tool_input(schema: type[BaseModel], tool_input: str | dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments for the tool's function, validated by `schema`.

    LangChain: BaseTool._parse_input. A bad input raises ToolInputError (the run turns it into
    an observation, as LangChain's handle_validation_error does with a ValidationError).
    """
    fields = schema.model_fields
    if isinstance(tool_input, str):
        tool_input = _arguments_from_text(schema, tool_input)
    try:
        validated = schema.model_validate(tool_input)
    except ValidationError as error:
        raise ToolInputError(f"{_describe_errors(error)}. {expected_input(schema)}") from None
    return {name: getattr(validated, name) for name in fields}


def _arguments_from_text(schema: type[BaseModel], text: str) -> dict[str, Any]:
    fields = list(schema.model_fields)
    if takes_raw_string(schema):
        return {fields[0]: text}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ToolInputError(
            f"the input is not JSON ({error.msg} at character {error.pos}). {expected_input(schema)}"
        ) from None
    if len(fields) == 1 and not (isinstance(value, dict) and set(value) == {fields[0]}):
        return {fields[0]: value}  # a one-argument tool may be given the bare value: 3 for {"n": 3}
    if not isinstance(value, dict):
        raise ToolInputError(f"the input is a JSON {type(value).__name__}, not an object. {expected_input(schema)}")
    return value


def expected_input(schema: type[BaseModel]) -> str:
    """One line telling the model what to write, e.g. 'Write a JSON object: {"a": integer, "b": integer}.'"""
    properties = schema.model_json_schema().get("properties", {})
    shown = ", ".join(f'"{name}": {_type_word(spec)}' for name, spec in properties.items())
    required = schema.model_json_schema().get("required", [])
    needed = f" ({', '.join(required)} required)" if required and len(required) < len(properties) else ""
    return f"Write a JSON object: {{{shown}}}{needed}."


def _type_word(spec: dict[str, Any]) -> str:
    if "type" in spec:
        return str(spec["type"])
    if "anyOf" in spec:
        return " or ".join(_type_word(option) for option in spec["anyOf"])
    return "value"


def _describe_errors(error: ValidationError) -> str:
    parts = []
    for problem in error.errors(include_url=False):
        where = ".".join(str(p) for p in problem["loc"]) or "input"
        parts.append(f"{where}: {problem['msg'].lower()}")
    return "; ".join(parts)


def _schema_name(tool_name: str) -> str:
    words = "".join(ch if ch.isalnum() else " " for ch in tool_name).split()
    return "".join(word[:1].upper() + word[1:] for word in words) + "Args" if words else "ToolArgs"
