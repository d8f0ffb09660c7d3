"""Structured output: the final answer pulled out defensively and validated, a bad one told back to the model."""

import pytest
from pydantic import BaseModel

from executor import OutputParsingError, extract_structured
from executor.agents.parser import OutputParserException
from tests.helpers.loop_builders import finish, run_collecting, scripted_executor
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor


class Price(BaseModel):
    item: str
    price: float
    currency: str = "CNY"


@pytest.mark.parametrize(
    "reply",
    [
        '{"item": "rose", "price": 26.25}',
        'Here it is:\n```json\n{"item": "rose", "price": 26.25}\n```\nHope that helps.',
        '```\n{"item": "rose", "price": 26.25}\n```',
        'The answer is {"item": "rose", "price": 26.25} as computed.',
        '{"answer": {"item": "rose", "price": 26.25}}',
        '{"output": "{\\"item\\": \\"rose\\", \\"price\\": 26.25}"}',
        '{"choices": [{"message": {"content": {"item": "rose", "price": 26.25}}}]}',
        'Draft: {"item": "rose"} final: {"item": "rose", "price": 26.25}',
    ],
    ids=[
        "bare",
        "fenced-json-with-prose",
        "plain-fence",
        "embedded",
        "answer-key",
        "json-in-a-string",
        "choices-path",
        "first-invalid-then-valid",
    ],
)
def test_the_answer_is_found_wherever_the_model_put_it(reply):
    assert extract_structured(reply, Price) == Price(item="rose", price=26.25)


def test_no_json_at_all_says_so_and_shows_the_schema():
    with pytest.raises(OutputParserException) as caught:
        extract_structured("The rose costs 26.25 yuan.", Price)
    error = caught.value
    assert str(error) == "Could not read the final answer as Price: it contains no JSON value"
    assert error.send_to_llm and error.llm_output == "The rose costs 26.25 yuan."
    assert '"required": ["item", "price"]' in error.observation


def test_invalid_json_names_the_fields_that_are_wrong():
    with pytest.raises(OutputParserException, match=r"does not match Price \(price: Input should be a valid number"):
        extract_structured('{"item": "rose", "price": "cheap"}', Price)


def test_a_bad_answer_is_a_parse_error_the_model_is_told_about_then_the_corrected_one_wins():
    executor, model = tool_calling_executor(
        [
            calls(("c1", "calc", {"tool_input": "25*1.05"})),
            '{"item": "rose", "price": "26.25 yuan"}',
            'Sorry:\n```json\n{"item": "rose", "price": 26.25}\n```',
        ],
        [text_tool("calc", lambda e: "26.25")],
        response_format=Price,
        handle_parsing_errors=True,
    )
    result, events, error = run_collecting(executor, "price a rose")
    assert error is None and result["output"] == Price(item="rose", price=26.25)
    (parse_error,) = [e for e in events if e.kind == "parse_error"]
    assert parse_error.handled and "price: Input should be a valid number" in parse_error.observation
    third = model.requests[2]["messages"]
    assert third[-2] == {"role": "assistant", "content": '{"item": "rose", "price": "26.25 yuan"}'}
    assert third[-1]["role"] == "user" and third[-1]["content"] == parse_error.observation
    finish_event = next(e for e in events if e.kind == "agent_finish")
    assert finish_event.return_values["output"] == Price(item="rose", price=26.25)
    assert '"price":26.25' in finish_event.model_dump_json()  # a trace writes it as JSON


def test_without_handle_parsing_errors_a_bad_answer_ends_the_run():
    executor, _ = tool_calling_executor(["no json here"], [text_tool("calc", str)], response_format=Price)
    _, events, error = run_collecting(executor)
    assert isinstance(error, OutputParsingError) and "it contains no JSON value" in str(error)
    assert [e.handled for e in events if e.kind == "parse_error"] == [False]


def test_response_format_on_the_agent_works_the_same():
    executor, _ = tool_calling_executor(
        ['{"item": "tulip", "price": 3}'], [text_tool("calc", str)], agent_settings={"response_format": Price}
    )
    result, _, _ = run_collecting(executor)
    assert result["output"] == Price(item="tulip", price=3.0)


def test_the_react_agent_gets_structured_output_too():
    executor, _ = scripted_executor([finish('{"item": "rose", "price": 26.25}')], response_format=Price)
    result, events, _ = run_collecting(executor)
    assert result["output"] == Price(item="rose", price=26.25)
    assert next(e for e in events if e.kind == "chain_start").settings["response_format"] == "Price"
