"""The linear ReAct parser against LangChain's backtracking regexes: same result on every reply."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from executor import AgentAction, AgentFinish, OutputParserException
from executor.agents.parser import MISSING_ACTION, MISSING_ACTION_INPUT, parse_react_output
from tests.helpers.parser_regex_reference import ACTION_LANGCHAIN, ACTION_LOOPSCOPE, parse_with_regex

# Small enough that the backtracking regexes always finish quickly.
REGEX_SAFE_CHARS = 240

# The grammar's pieces, with the look-alikes that trip regexes: unicode spaces and digits, quotes.
PIECES = [
    "Action",
    "Action",
    "Input",
    "Action Input",
    "Action 1",
    ":",
    ": ",
    "Final Answer:",
    "Final Answer",
    "Thought:",
    "Observation",
    "0",
    "1",
    "42",
    "\u0663",
    " ",
    "  ",
    "\n",
    "\t",
    "\r\n",
    "\u00a0",
    "\u2003",
    "\x1c",
    "\x0b",
    '"',
    '""',
    "Search",
    "x",
    "Act",
    "ion",
    "In",
    "put",
    "A",
    "nswer:",
]


def outcome(parse, text):
    """Everything a caller can observe of a parse: the result, or the error and its fields."""
    try:
        result = parse(text)
    except OutputParserException as error:
        return ("error", str(error), error.observation, error.llm_output, error.send_to_llm)
    if isinstance(result, AgentAction):
        return ("action", result.tool, result.tool_input, result.log)
    assert isinstance(result, AgentFinish)
    return ("finish", result.return_values, result.log)


def assert_same(text):
    new = outcome(parse_react_output, text)
    assert new == outcome(lambda t: parse_with_regex(t, ACTION_LOOPSCOPE), text), text
    assert new == outcome(lambda t: parse_with_regex(t, ACTION_LANGCHAIN), text), text


replies = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)


@pytest.mark.slow  # 4,000 generated replies: seconds of generation
@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(replies.filter(lambda text: len(text) <= REGEX_SAFE_CHARS))
def test_grammar_built_replies_parse_exactly_as_the_regex_does(text):
    assert_same(text)


@pytest.mark.slow  # 1,500 generated texts: seconds of generation
@settings(max_examples=1500, deadline=None)
@given(st.text(max_size=REGEX_SAFE_CHARS))
def test_arbitrary_text_parses_exactly_as_the_regex_does(text):
    assert_same(text)


def test_twenty_thousand_seeded_replies_parse_exactly_as_the_regex_does():
    rng = random.Random(13)
    outcomes = set()
    for _ in range(20_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 25)))
        assert_same(text)
        new = outcome(parse_react_output, text)
        outcomes.add(new[0] if new[0] != "error" else (new[0], new[2], new[4]))
    # The sweep reached every outcome, so agreement above covers all branches.
    assert outcomes == {
        "action",
        "finish",
        ("error", None, False),
        ("error", MISSING_ACTION, True),
        ("error", MISSING_ACTION_INPUT, True),
    }


@pytest.mark.parametrize(
    "text",
    [
        "Action" + " " * 60 + "x",
        "Action: " + " " * 60 + "x",
        "Action:" * 30,
        " " * 60 + "Action Input",
        "Action 1 2: x Action Input: y",
        'Action\u0663\u00a0:\u2003t\x1cAction Input\u0663: "v"  ',
        "Action: a Action: b Action 1 Input 2 : c",
        "Action: t\nAction Input: x\nFinal Answer: y",
    ],
)
def test_adversarial_small_replies_parse_exactly_as_the_regex_does(text):
    assert_same(text)


# Replies on which the regexes backtrack for seconds to minutes, each with the result the regex
# would give if left to finish (worked out from the grammar, and equal to the regex on small copies).
PATHOLOGICAL = [
    ("Action:" * 20_000, ["error", MISSING_ACTION_INPUT]),
    ("Action: " + " " * 100_000 + "x", ["error", MISSING_ACTION_INPUT]),
    ("Action" + " " * 100_000 + "x", ["error", MISSING_ACTION]),
    ("Action 1" * 15_000, ["error", MISSING_ACTION]),
    (" " * 100_000 + "Action Input" * 10_000, ["error", MISSING_ACTION]),
    ("Action:" * 20_000 + " Action Input: q", ["action", "Action:" * 19_999, "q"]),
    ("Action: Search" + " " * 100_000 + "Action Input:" + " " * 100_000 + '"rose"  ', ["action", "Search", "rose"]),
    ("Action: x" + "\n" * 100_000 + "Final Answer: y", ["finish", "y"]),
]


def _small_copy(text: str) -> str:
    """The same shape at 1/1000 of the size, for the regex to check the expected result against."""
    return text.replace(" " * 100_000, " " * 100).replace("\n" * 100_000, "\n" * 100)


def test_pathological_replies_have_the_regex_result_on_small_copies():
    assert_same(_small_copy(PATHOLOGICAL[1][0]))
    assert_same(_small_copy(PATHOLOGICAL[6][0]))
    assert_same("Action:" * 20 + " Action Input: q")
    assert_same("Action 1" * 15)


CHILD = """
import json, sys
from executor.agents.parser import OutputParserException, parse_react_output
results = []
for text in json.load(sys.stdin):
    try:
        out = parse_react_output(text)
    except OutputParserException as error:
        results.append(["error", error.observation])
    else:
        results.append(["action", out.tool, out.tool_input] if hasattr(out, "tool")
                       else ["finish", out.return_values["output"]])
print(json.dumps(results))
"""


def test_pathological_100kb_replies_parse_correctly_without_hanging():
    texts = [text for text, _ in PATHOLOGICAL]
    assert all(len(text) >= 100_000 for text in texts)
    # In a child process so that a backtracking regression fails at the timeout instead of hanging
    # the suite (the linear parser needs milliseconds; bench/bench_parser.py measures it).
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [expected for _, expected in PATHOLOGICAL]
