"""Table tests of the ReAct output parser: every outcome and every message."""

import pytest

from executor import AgentAction, AgentFinish, OutputParserException
from executor.agents.parser import MISSING_ACTION, MISSING_ACTION_INPUT, parse_react_output

ACTIONS = [
    ("Thought: look it up\nAction: Search\nAction Input: rose price", "Search", "rose price"),
    ('Action:   Search  \nAction Input:   "rose price"  ', "Search", "rose price"),
    ("Action 1: Calculator\nAction 1 Input: 25 * 1.05", "Calculator", "25 * 1.05"),
    ("Action:Search\nAction Input:multi\nline input", "Search", "multi\nline input"),
    ("Action: search\nAction Input: x", "search", "x"),  # case is kept; the executor decides validity
    ("Action: Search\nAction Input: \n  spaced \n", "Search", "spaced \n"),  # only spaces and quotes are stripped
]


@pytest.mark.parametrize("text,tool,tool_input", ACTIONS)
def test_action_is_parsed_with_tool_input_stripped_of_spaces_then_quotes(text, tool, tool_input):
    action = parse_react_output(text)
    assert action == AgentAction(tool, tool_input, text)


@pytest.mark.parametrize(
    "text,answer",
    [
        (" I now know the final answer.\nFinal Answer: 26.25 yuan", "26.25 yuan"),
        ("Final Answer: first\nFinal Answer:   last  ", "last"),
        ("Final Answer:", ""),
    ],
)
def test_final_answer_takes_text_after_last_marker(text, answer):
    finish = parse_react_output(text)
    assert finish == AgentFinish({"output": answer}, text)


def test_final_answer_and_action_together_is_an_error_not_sent_to_the_model():
    text = "Action: Search\nAction Input: x\nFinal Answer: y"
    with pytest.raises(OutputParserException) as caught:
        parse_react_output(text)
    error = caught.value
    # LangChain's quirk, kept byte for byte: the message ends in ':' and the f-string adds another.
    assert str(error) == f"Parsing LLM output produced both a final answer and a parse-able action:: {text}"
    assert error.send_to_llm is False
    assert error.observation is None


@pytest.mark.parametrize(
    "text,observation",
    [
        ("I am just chatting, no tool here.", MISSING_ACTION),
        ("Thought: use a tool\nAction: Search", MISSING_ACTION_INPUT),
    ],
)
def test_missing_parts_raise_with_an_observation_for_the_model(text, observation):
    with pytest.raises(OutputParserException) as caught:
        parse_react_output(text)
    error = caught.value
    assert str(error) == f"Could not parse LLM output: `{text}`"
    assert error.observation == observation
    assert error.send_to_llm is True
    assert error.llm_output == text


def test_observation_messages_are_the_classic_ones():
    assert MISSING_ACTION == "Invalid Format: Missing 'Action:' after 'Thought:'"
    assert MISSING_ACTION_INPUT == "Invalid Format: Missing 'Action Input:' after 'Action:'"


def test_input_before_action_cannot_be_parsed_and_gets_no_hint():
    text = "Action Input: x then Action: Search"
    with pytest.raises(OutputParserException) as caught:
        parse_react_output(text)
    assert caught.value.send_to_llm is False
