"""The question and the answer of a run, whether an AgentExecutor's inputs or a LangGraph agent's messages."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROOT
from tracer.trace.importers import convert_all
from tracer.trace.run_inputs import answer_of, last_user_message, question_of


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
        # The shapes real exports hold (tests/data): LangChain's serialised messages, the GenAI
        # conventions' parts, Google ADK's new_message, the Gemini SDK's contents, a traced function's args.
        ({"messages": [{"type": "human", "content": "serialised", "additional_kwargs": {}}]}, "serialised"),
        ({"input": [{"role": "user", "parts": [{"type": "text", "content": "in parts"}]}]}, "in parts"),
        ({"new_message": {"parts": [{"text": "hi"}], "role": "user"}, "user_id": "u"}, "hi"),
        ({"model": "gemini-2.5-flash", "contents": "What is Langfuse?"}, "What is Langfuse?"),
        ({"args": ["one text argument"], "kwargs": {}}, "one text argument"),
        ({"args": ["two", "arguments"], "kwargs": {}}, ""),
        ({"args": ["with kwargs"], "kwargs": {"x": 1}}, ""),
        ({"input": 42}, "42"),
        ({}, ""),
    ],
)
def test_the_question_is_the_input_or_the_last_user_message(inputs, question):
    assert question_of(inputs) == question


def test_an_imported_run_is_asked_what_its_framework_recorded():
    """Every Langfuse framework sample (tests/data/langfuse) names its question, in the inputs or, where
    those hold the framework's own objects, in the first model call (the narrator's fallback)."""
    unnamed = []
    for path in sorted((ROOT / "tests" / "data" / "langfuse").glob("*.json")):
        events = convert_all(path).pick(None).events
        first_call = next(e for e in events if e.kind == "llm_start")
        asked = question_of(events[0].inputs) or last_user_message(first_call.messages or [])
        if not asked.strip() or asked.startswith(("[", "{")):
            unnamed.append(path.name)
    assert unnamed == []


def test_the_answer_is_the_output_or_the_last_messages_content():
    assert answer_of({"output": "26.25"}) == "26.25"
    assert answer_of({"messages": [{"role": "user", "content": "q"}, {"role": "ai", "content": "done"}]}) == "done"
    assert answer_of({"messages": []}) == {"messages": []}
    assert answer_of({"other": 1}) == {"other": 1}


@pytest.mark.parametrize(
    "outputs,answer",
    [
        ({"choices": [{"message": {"role": "assistant", "content": "from a completion"}}]}, "from a completion"),
        ({"candidates": [{"content": {"parts": [{"text": "from "}, {"text": "Gemini"}]}}]}, "from  Gemini"),
        ({"content": {"parts": [{"text": "ADK's event"}], "role": "model"}}, "ADK's event"),
        (
            {
                "output": [
                    {"role": "assistant", "parts": [{"type": "tool_call", "name": "get_weather"}]},
                    {"role": "assistant", "parts": [{"type": "text", "content": "the last text part"}]},
                ]
            },
            "the last text part",
        ),
        ({"output": {"messages": [{"type": "ai", "content": "nested"}]}}, "nested"),
        ({"output": ""}, ""),
        ({"output": ["roses", "tulips"]}, ["roses", "tulips"]),  # an answer that is a list stays whole
    ],
)
def test_the_answer_is_found_in_the_shapes_exports_record(outputs, answer):
    assert answer_of(outputs) == answer


def test_a_hostile_nesting_gives_up_rather_than_recursing_forever():
    deep: dict = {"output": "bottom"}
    for _ in range(10_000):
        deep = {"output": deep}
    assert answer_of(deep) == deep["output"]
