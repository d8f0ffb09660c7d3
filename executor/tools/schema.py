"""Tools as a tool-calling model sees them: JSON-Schema specs out, JSON arguments in and validated."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field, ValidationError, create_model

from .tool import Tool

# OpenAI's rule for function names; a name outside it is refused by the API with an HTTP 400.
_FUNCTION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SINGLE_INPUT_FIELD = "tool_input"  # LangChain: a Tool without args_schema takes {"tool_input": string}


class ToolArgumentsError(ValueError):
    """The arguments a model wrote for a tool call are not valid JSON or do not fit the tool's schema."""


def check_function_name(tool: Tool) -> None:
    if not _FUNCTION_NAME.match(tool.name):
        raise ValueError(
            f"Tool name {tool.name!r} cannot be sent as a function name (letters, digits, "
            "'_' and '-' only, at most 64); rename the tool for the tool-calling agent"
        )


def tool_args_schema(tool: Tool) -> type[BaseModel]:
    """The tool's own `args_schema`, or a one-field {"tool_input": str} model for a single-string tool."""
    schema = getattr(tool, "args_schema", None)
    return schema if schema is not None else _single_input_schema(tool.name)


@lru_cache(maxsize=256)
def _single_input_schema(name: str) -> type[BaseModel]:
    fields: dict[str, Any] = {SINGLE_INPUT_FIELD: (str, Field(description="The tool's input text."))}
    return create_model(f"{name}_arguments", **fields)


def tool_spec(tool: Tool) -> dict[str, Any]:
    """LangChain: convert_to_openai_tool — the `tools` entry for this tool."""
    own = getattr(tool, "openai_tool", None)
    if callable(own):
        return own()
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool_args_schema(tool).model_json_schema(),
        },
    }


def parse_tool_arguments(tool: Tool, arguments: str) -> Any:
    """The model's JSON arguments validated against the tool's schema, as the tool's input.

    A tool whose schema is one string field gets that string (as a ReAct Action Input would
    be); any other gets the validated fields as a dict.
    Raises ToolArgumentsError with a message meant for the model (it becomes the call's observation).
    """
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError as error:
        raise ToolArgumentsError(
            f"the arguments for {tool.name} are not valid JSON ({error.msg} at "
            f"position {error.pos}); send a JSON object"
        ) from error
    schema = tool_args_schema(tool)
    try:
        validated = schema.model_validate(value)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in error.errors(include_url=False)
        )
        raise ToolArgumentsError(f"the arguments for {tool.name} do not fit its schema ({problems})") from error
    fields = type(validated).model_fields
    if len(fields) == 1 and isinstance(value := getattr(validated, next(iter(fields))), str):
        return value
    return validated.model_dump()
