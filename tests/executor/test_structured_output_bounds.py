"""Structured output on hostile replies: bounded time and depth, and the same answers as before on ordinary ones."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from executor.agents import structured_output
from executor.agents.json_spans import bracket_spans
from executor.agents.structured_output import extract_structured, json_candidates
from tests.helpers.json_candidates_reference import json_candidates_reference
from tests.helpers.loop_builders import finish, run_collecting, scripted_executor
from tests.helpers.tool_calling_builders import text_tool, tool_calling_executor


class Price(BaseModel):
    item: str
    price: float


ANSWER = '{"item": "rose", "price": 26.25}'


@pytest.mark.parametrize(
    "reply",
    ["{" * 150_000, "[" * 3000, "[" * 100_000 + "]" * 100_000, '{"a": ' * 5000],
    ids=["150KB-of-open-braces", "3000-open-brackets", "balanced-100000-deep", "nested-keys"],
)
@pytest.mark.parametrize("agent", ["tool-calling", "react"])
def test_a_hostile_reply_is_a_parse_error_the_model_is_told_about_not_a_crash(reply, agent):
    if agent == "tool-calling":
        executor, _ = tool_calling_executor(
            [reply, ANSWER], [text_tool("calc", str)], response_format=Price, handle_parsing_errors=True
        )
    else:
        executor, _ = scripted_executor(
            [finish(reply), finish(ANSWER)], response_format=Price, handle_parsing_errors=True
        )
    result, events, error = run_collecting(executor)
    assert error is None and result["output"] == Price(item="rose", price=26.25)
    (parse_error,) = [e for e in events if e.kind == "parse_error"]
    assert parse_error.handled and parse_error.error.startswith("Could not read the final answer as Price: ")
    assert not [e for e in events if e.kind == "chain_error"]


@pytest.mark.parametrize(
    "reply", ["{" * 20_000, "[{" * 10_000, '{"a": [' * 5000, "[]" * 10_000, "{x}" * 7000, "[" * 5000 + "]" * 5000]
)
def test_the_decoder_reads_a_bounded_multiple_of_the_reply(monkeypatch, reply):
    # What the old search did: decode from every bracket of the whole reply, each failure counting the
    # lines before it (150 KB of "{" took minutes). The work is what the decoder is handed: from where
    # it starts to the end of the text it may scan and count, summed over every call.
    handed = []
    real_raw_decode = json.JSONDecoder.raw_decode

    def counting_raw_decode(self, text, idx=0):
        handed.append(len(text))  # a decode error counts lines up to its position: the whole text is at stake
        return real_raw_decode(self, text, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counting_raw_decode)
    list(json_candidates(reply))
    assert sum(handed) <= (structured_output.DECODE_BUDGET + 2) * len(reply) + 65536


def test_the_answer_after_a_hostile_prefix_is_still_found():
    # 50,000 unclosed braces, then a real answer: no opening bracket costs more than its own span.
    assert extract_structured("{" * 50_000 + " " + ANSWER, Price) == Price(item="rose", price=26.25)


def test_a_value_nested_deeper_than_max_depth_is_not_a_candidate_but_what_it_holds_is():
    deep = "[" * (structured_output.MAX_DEPTH + 1) + "7" + "]" * (structured_output.MAX_DEPTH + 1)
    values = list(json_candidates("text " + deep))
    assert len(values) == structured_output.MAX_DEPTH  # every span but the outermost
    assert values[-1] == [7]


def test_the_embedded_search_stops_at_its_limits(monkeypatch):
    monkeypatch.setattr(structured_output, "MAX_EMBEDDED_VALUES", 3)
    assert list(json_candidates("x [1] [2] [3] [4] [5]")) == [[1], [2], [3]]
    monkeypatch.setattr(structured_output, "MAX_EMBEDDED_VALUES", 100)
    monkeypatch.setattr(structured_output, "EMBEDDED_SEARCH_CHARS", 10)
    assert list(json_candidates("x [1] [2] [3] [4] [5]")) == [[1], [2]]


def test_spans_follow_strings_as_the_decoder_does():
    text = 'say "{" then {"a": "}", "b": [1, "]"]} and \\[2] {"c": 1 \\"x"} [3'
    assert [text[s : e + 1] for s, e in bracket_spans(text, 100, 100)] == [
        '{" then {"a": "}',
        '{"a": "}", "b": [1, "]"]}',
        '[1, "]"]',
        "[2]",
    ]


# Ordinary replies: prose around JSON values, fenced blocks, several candidates, and prose that
# is itself full of the characters the scan watches (quotes, backslashes, brackets).
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab "\\{}[]:,\n中'), max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)
PROSE = st.text(alphabet=st.sampled_from(list('ab {}[]":,\\\n1') + ["中", "`"]), max_size=20)


@st.composite
def replies(draw) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        parts.append(draw(PROSE))
        value = json.dumps(draw(JSON_VALUES), ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 2])))
        fence = draw(st.sampled_from(["", "```json\n{}\n```", "```\n{}\n```", "```python\n{}\n```"]))
        parts.append(fence.format(value) if fence else value)
        parts.append(draw(PROSE))
    return "".join(parts)


@pytest.mark.slow  # 3,000 generated replies: seconds of generation
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(replies())
def test_ordinary_replies_give_the_same_candidates_in_the_same_order_as_before(text):
    assert list(json_candidates(text)) == list(json_candidates_reference(text))


@pytest.mark.slow  # 3,000 generated texts: seconds of generation
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(list('{}[]":,\\ 1a\n') + ["{}", "[]", '"a"', "1,", '"\\"']), max_size=40).map("".join))
def test_any_text_of_brackets_quotes_and_backslashes_gives_the_same_candidates_as_before(text):
    assert list(json_candidates(text)) == list(json_candidates_reference(text))


@pytest.mark.slow  # 500 generated replies, each parsed twice: seconds of generation
@settings(max_examples=500, deadline=None)
@given(replies(), st.sampled_from([ANSWER, '```json\n{"answer": ' + ANSWER + "}\n```"]))
def test_the_answer_picked_is_the_one_picked_before(text, answer):
    reply = text + answer
    assert _picked(reply, json_candidates) == _picked(reply, json_candidates_reference)


def _picked(reply, candidates):
    original = structured_output.json_candidates
    structured_output.json_candidates = candidates
    try:
        return extract_structured(reply, Price)
    except Exception as error:  # the same error counts as the same pick
        return str(error)
    finally:
        structured_output.json_candidates = original
