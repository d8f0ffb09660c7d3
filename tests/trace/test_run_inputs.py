"""The question and the answer of a run, whether an AgentExecutor's inputs or a LangGraph agent's messages."""

from __future__ import annotations

import pytest

from tracer.trace.run_inputs import answer_of, question_of


@pytest.mark.parametrize(
    "inputs,question",
    [
        ({"input": "rose prices?"}, "rose prices?"),
        ({"messages": [{"role": "user", "content": "first"}, {"role": "assistant", "content": "a"}]}, "first"),
        ({"messages": [{"role": "human", "content": "q1"}, {"role": "human", "content": "q2"}]}, "q2"),
        ({"messages": [["user", "as a pair"]]}, "as a pair"),
        ({"messages": ["a bare string"]}, "a bare string"),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "in"}, {"type": "text", "text": "parts"}]}
                ]
            },
            "in parts",
        ),
        ({"messages": [{"role": "system", "content": "not the question"}]}, ""),
        ({"messages": "not a list"}, ""),
        ({}, ""),
    ],
)
def test_the_question_is_the_input_or_the_last_user_message(inputs, question):
    assert question_of(inputs) == question


def test_the_answer_is_the_output_or_the_last_messages_content():
    assert answer_of({"output": "26.25"}) == "26.25"
    assert answer_of({"messages": [{"role": "user", "content": "q"}, {"role": "ai", "content": "done"}]}) == "done"
    assert answer_of({"messages": []}) == {"messages": []}
    assert answer_of({"other": 1}) == {"other": 1}
