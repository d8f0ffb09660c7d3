"""Which of two parallel calls of one tool function the worker hook traces: the one with the stepped call's arguments."""

from __future__ import annotations

import sys

import pytest

from tracer.debug.worker_adoption import _is_this_call, arguments_of


@pytest.mark.parametrize(
    ("tool_input", "expected"),
    [
        ('{"city": "Beijing", "days": 3}', {"city": "Beijing", "days": 3}),
        ('{"city": "Beijing", "where": {"lat": 1}}', {"city": "Beijing"}),  # a nested value: no evidence
        ('["Beijing"]', {}),
        ("Beijing", {}),  # ReAct's plain text
        ("", {}),
        ('{"city": "\\u001b[31mred"}', {"city": "\x1b[31mred"}),  # only compared, never shown
    ],
)
def test_the_arguments_compared_are_the_json_scalars_of_the_tool_input(tool_input, expected):
    assert arguments_of(tool_input) == expected


def _frame_of(city, days):
    return sys._getframe()


def test_a_call_is_told_apart_by_an_argument_of_the_same_type_not_by_one_the_framework_converted():
    frame = _frame_of("Shanghai", 3)
    assert _is_this_call(frame, {"city": "Shanghai", "days": 3})
    assert not _is_this_call(frame, {"city": "Beijing"})
    assert _is_this_call(frame, {"days": "3"})  # "3" validated into 3: the same call
    assert _is_this_call(frame, {"unknown": 1})  # a name the function does not take: no evidence
    assert _is_this_call(frame, {})
