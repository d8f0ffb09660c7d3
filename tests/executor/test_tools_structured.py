"""Structured tools: @tool builds a schema from type hints; a bad Action Input is an observation, not a crash."""

import json

import pytest
from pydantic import BaseModel, Field

from executor import Tool, tool
from tests.helpers.loop_builders import action, finish, run_collecting, scripted_executor


@tool
def add(a: int, b: int = 1) -> int:
    """Add two whole numbers."""
    return a + b


@tool("Lookup", return_direct=True)
def lookup(query: str) -> str:
    """Look a word up."""
    return f"found:{query}"


@tool
def count_items(items: dict) -> str:
    """Count the entries of a mapping."""
    return f"{len(items)} items"


def test_decorator_takes_name_description_and_schema_from_the_function():
    assert add.name == "add" and add.description == "Add two whole numbers."
    assert add.json_schema()["properties"] == {
        "a": {"title": "A", "type": "integer"},
        "b": {"default": 1, "title": "B", "type": "integer"},
    }
    assert add.json_schema()["required"] == ["a"]
    assert lookup.name == "Lookup" and lookup.return_direct is True
    assert list(lookup.args_schema.model_fields) == ["query"]


def test_plain_tool_has_a_one_string_field_schema_and_an_openai_entry():
    plain = Tool("Search", "Look things up.", lambda q: q)
    assert plain.json_schema()["properties"] == {"tool_input": {"title": "Tool Input", "type": "string"}}
    assert plain.openai_tool() == {
        "type": "function",
        "function": {"name": "Search", "description": "Look things up.", "parameters": plain.json_schema()},
    }


def test_multi_argument_tool_takes_a_json_object_and_gets_typed_arguments():
    ex, model = scripted_executor([action("add", '{"a": 2, "b": "40"}'), finish("42")], tools=[add])
    _result, events, error = run_collecting(ex)
    assert error is None
    (end,) = [e for e in events if e.kind == "tool_end"]
    assert end.observation == "42"  # "40" was coerced to an int: the arguments were validated, not passed as text
    assert "Observation: 42\n" in model.prompts[1]


def test_single_str_argument_keeps_the_raw_action_input():
    ex, _ = scripted_executor([action("Lookup", '{"not": "json parsed"}')], tools=[lookup])
    result, _, _ = run_collecting(ex)
    assert result["output"] == 'found:{"not": "json parsed"}'


def test_single_dict_argument_accepts_the_bare_object_or_the_named_one():
    for text in ('{"x": 1, "y": 2}', '{"items": {"x": 1, "y": 2}}'):
        ex, model = scripted_executor([action("count_items", text), finish("ok")], tools=[count_items])
        run_collecting(ex)
        assert "Observation: 2 items" in model.prompts[1]


@pytest.mark.parametrize(
    "text, says",
    [
        ('{"a": 2', "not JSON"),
        ('{"b": 3}', "a: field required"),
        ('{"a": "two"}', "a: input should be a valid integer"),
        ("[1, 2]", "not an object"),
    ],
)
def test_bad_input_becomes_the_observation_and_the_loop_goes_on(text, says):
    ex, model = scripted_executor([action("add", text), action("add", '{"a": 1, "b": 2}'), finish("3")], tools=[add])
    result, events, error = run_collecting(ex)
    assert error is None and result["output"] == "3"
    (tool_error,) = [e for e in events if e.kind == "tool_error"]
    assert tool_error.handled and tool_error.error_type == "ToolInputError"
    assert says in tool_error.observation
    assert 'Write a JSON object: {"a": integer, "b": integer} (a required).' in tool_error.observation
    assert f"Observation: {tool_error.observation}\n" in model.prompts[1]
    assert [e.observation for e in events if e.kind == "tool_end"][1] == "3"


def test_explicit_args_schema_calls_the_function_with_keywords():
    class Order(BaseModel):
        item: str = Field(description="What to buy")
        quantity: int

    seen = []
    buy = Tool("Buy", "Buy something.", lambda item, quantity: seen.append((item, quantity)) or "ok", args_schema=Order)
    assert buy.json_schema()["properties"]["item"]["description"] == "What to buy"
    ex, _ = scripted_executor(
        [action("Buy", json.dumps({"item": "roses", "quantity": 3})), finish("done")], tools=[buy]
    )
    run_collecting(ex)
    assert seen == [("roses", 3)]


def test_a_dict_input_from_a_tool_calling_agent_is_validated_too():
    from executor.run_context import RunContext

    run = RunContext()
    gen = add.run({"a": 5}, run)
    events = []
    try:
        while True:
            events.append(next(gen))
    except StopIteration as stop:
        assert stop.value == 6
    assert events[0].tool_input == '{"a": 5}'


def test_decorator_refuses_what_it_cannot_describe():
    with pytest.raises(ValueError, match="has no docstring"):
        tool(lambda x: x)
    with pytest.raises(TypeError, match=r"\*args cannot be described"):

        @tool
        def spread(*args: int) -> int:
            """Sum."""
            return sum(args)

    with pytest.raises(TypeError, match="args_schema must be a pydantic model class"):
        Tool("T", "d", lambda x: x, args_schema=dict)


def test_invoke_calls_a_tool_on_its_own_like_langchains():
    from executor import ToolInputError

    assert add.invoke({"a": 2, "b": 3}) == 5
    assert add.invoke('{"a": 2}') == 3
    assert lookup.invoke("roses") == "found:roses"
    with pytest.raises(ToolInputError, match="a: field required"):
        add.invoke({"b": 1})


def test_an_optional_str_argument_still_takes_the_raw_input():
    @tool
    def search(query: str | None = None) -> str:
        """Search."""
        return f"searched:{query}"

    assert search.invoke("red roses") == "searched:red roses"
