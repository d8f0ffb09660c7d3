"""The turn limit a re-run takes from a trace's chain_start: a hostile or foreign value is never passed on."""

from __future__ import annotations

import pytest

from tracer.agents.frameworks import recorded_limits


class TakesTurns:
    takes_max_turns = True


class TakesRequests:  # pydantic-ai: its UsageLimits(request_limit=N), kept under its own name
    takes_max_turns = True
    limit_setting = "request_limit"


class TakesNone:
    pass


def test_the_recorded_limit_goes_to_an_adapter_that_takes_one():
    assert recorded_limits(TakesTurns(), {"max_turns": 3}) == {"max_turns": 3}
    assert recorded_limits(TakesNone(), {"max_turns": 3}) == {}  # LangGraph: not its own
    assert recorded_limits(TakesRequests(), {"request_limit": 4}) == {"max_turns": 4}
    assert recorded_limits(TakesRequests(), {"max_turns": 4}) == {}  # another framework's name is not read


@pytest.mark.parametrize(
    "settings",
    [None, "max_turns=3", [], {}, {"max_turns": 0}, {"max_turns": -5}, {"max_turns": True}, {"max_turns": "7"},
     {"max_turns": 2.5}, {"max_turns": None}, {"max_turns": {"__class__": "int"}}],
)  # fmt: skip
def test_a_limit_a_trace_holds_that_is_not_a_whole_number_of_turns_is_left_out(settings):
    assert recorded_limits(TakesTurns(), settings) == {}
    renamed = {"request_limit": settings["max_turns"]} if isinstance(settings, dict) and settings else settings
    assert recorded_limits(TakesRequests(), renamed) == {}
