"""The turn limit a re-run takes from a trace's chain_start: a hostile or foreign value is never passed on."""

from __future__ import annotations

import pytest

from tracer.agents.frameworks import recorded_limits


class TakesTurns:
    takes_max_turns = True


class TakesNone:
    pass


def test_the_recorded_limit_goes_to_an_adapter_that_takes_one():
    assert recorded_limits(TakesTurns(), {"max_turns": 3}) == {"max_turns": 3}
    assert recorded_limits(TakesNone(), {"max_turns": 3}) == {}  # LangGraph, pydantic-ai: not theirs


@pytest.mark.parametrize(
    "settings",
    [None, "max_turns=3", [], {}, {"max_turns": 0}, {"max_turns": -5}, {"max_turns": True}, {"max_turns": "7"},
     {"max_turns": 2.5}, {"max_turns": None}, {"max_turns": {"__class__": "int"}}],
)  # fmt: skip
def test_a_limit_a_trace_holds_that_is_not_a_whole_number_of_turns_is_left_out(settings):
    assert recorded_limits(TakesTurns(), settings) == {}
