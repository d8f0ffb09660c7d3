"""The fast trace line is pydantic's own line, byte for byte; what orjson cannot write the same goes pydantic's way."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from executor.events import (
    ActionRecord,
    CalleeRef,
    ChainEndEvent,
    ChainStartEvent,
    LLMEndEvent,
    SourceRef,
    StepEvent,
    ToolEndEvent,
)
from tests.helpers.paths import FIXTURES
from tracer.trace.line_encoder import encode_event, encode_fields, event_fields
from tracer.trace.reader import load_trace

ENVELOPE = {
    "seq": 3,
    "run_id": "abc",
    "t": 0.25,
    "iteration": 1,
    "frames": ("invoke", "_call"),
    "source": SourceRef(file="executor/agent_executor.py", line=9, function="_call"),
}


def pydantic_line(event) -> bytes:
    return event.__pydantic_serializer__.to_json(event, fallback=repr)


def fast_line(event) -> bytes | None:
    """The orjson line alone (None where it declines), without encode_event's fallback."""
    fields = event_fields(event)
    return encode_fields(fields) if fields is not None else None


TRACES = sorted(FIXTURES.glob("*.jsonl")) + sorted(FIXTURES.glob("*/*.jsonl"))


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name)
def test_every_shipped_event_is_written_by_orjson_exactly_as_pydantic_writes_it(path):
    events = load_trace(path)[1]
    assert events
    for event in events:
        assert fast_line(event) == pydantic_line(event), event.kind


def test_the_langchain_fixture_keeps_its_stack_and_origin_and_others_leave_them_out():
    langchain = load_trace(FIXTURES / "langchain" / "rose_pricing.jsonl")[1]
    assert any(event.stack for event in langchain)
    assert all(b'"stack"' in encode_event(e) for e in langchain if e.stack)
    rose = load_trace(FIXTURES / "rose_pricing.jsonl")[1]
    assert all(b'"stack"' not in encode_event(e) and b'"origin"' not in encode_event(e) for e in rose)


def test_a_zero_count_is_left_out_and_a_non_zero_one_is_written():
    quiet = LLMEndEvent(**ENVELOPE, text="t", duration=0.1)
    noisy = LLMEndEvent(**ENVELOPE, text="t", duration=0.1, replaced_surrogates=2)
    assert b"replaced_surrogates" not in encode_event(quiet)
    assert encode_event(noisy).endswith(b'"replaced_surrogates":2}')
    assert encode_event(quiet) == pydantic_line(quiet) and encode_event(noisy) == pydantic_line(noisy)


@pytest.mark.parametrize(
    "outputs",
    [
        {"big": 2**70},  # over 64 bits: orjson refuses
        {"set": {1, 2}},  # pydantic writes a set as a list
        {"bytes": b"abc"},  # pydantic writes it as a string, orjson refuses
        {"object": object()},  # pydantic falls back to repr
        {1: "a non-str key"},
        {"model": ActionRecord(tool="t", tool_input="i", log="l")},
    ],
)
def test_what_orjson_cannot_write_the_same_way_goes_pydantic_way(outputs):
    event = ChainEndEvent.model_construct(**ENVELOPE, outputs=outputs)
    expected = pydantic_line(event)
    assert encode_event(event) == expected


def test_a_lone_surrogate_pydantic_refuses_is_written_escaped_and_reads_back_the_same():
    event = ChainEndEvent(**ENVELOPE, outputs={"output": "a\ud800b"})
    with pytest.raises(Exception):
        pydantic_line(event)  # pydantic (and orjson) cannot write it as UTF-8
    line = encode_event(event)
    assert line.isascii() and b"\\ud800" in line
    assert ChainEndEvent.model_validate(json.loads(line)) == event


def test_nested_records_are_written_as_pydantic_writes_them_and_event_fields_is_a_copy():
    callee = CalleeRef(file="my_agent.py", line=3, function="price", qualname="price")
    event = ToolEndEvent(**ENVELOPE, tool="Price", observation="25", callee=callee)
    assert encode_event(event) == pydantic_line(event)
    fields = event_fields(event)
    fields["observation"] = "changed"  # the line maker edits what it is given (a prompt's base and append)
    assert event.observation == "25" and encode_event(event) == pydantic_line(event)


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    text,
)
json_value = st.recursive(
    json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=12
)


@pytest.mark.slow  # 400 generated values, each written twice: seconds of generation
@settings(max_examples=400, deadline=None)
@given(
    inputs=st.dictionaries(text, json_value, max_size=5),
    observation=text,
    log=text,
    t=st.floats(min_value=0, max_value=1e12, allow_nan=False),
)
def test_random_values_are_written_byte_for_byte_as_pydantic_writes_them(inputs, observation, log, t):
    start = ChainStartEvent(**{**ENVELOPE, "t": t}, inputs={"input": "q", **inputs}, tools=[], settings=inputs)
    step = StepEvent(
        **ENVELOPE, action=ActionRecord(tool="T", tool_input=observation, log=log), observation=observation, n_steps=1
    )
    for event in (start, step):
        assert encode_event(event) == pydantic_line(event)


@pytest.mark.parametrize(
    "number", [0.1, 1e16, 1e-7, 123456789.125, -0.0, 5e-324, 1.7976931348623157e308, math.inf, -math.inf, math.nan]
)
def test_floats_have_the_same_shortest_form(number):
    event = ChainEndEvent(**{**ENVELOPE, "t": 0.5}, outputs={"x": number})
    assert encode_event(event) == pydantic_line(event)
