"""The breakpoint condition language: parsing, per-event evaluation, and the vectorised plan over an index."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.paths import ROSE
from tracer.debug.breakpoint_spec import BreakpointSpecError, parse_spec
from tracer.debug.conditions import (
    MISSING,
    Condition,
    ConditionError,
    resolve_in,
    tokenize,
)
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile

with TraceFile(ROSE) as _trace:  # source lines move with executor edits: read them from the fixture
    FINISH_CHECK_LINE = next(e.source.line for e in _trace if e.kind == "finish_check")

ACTION = {
    "seq": 10,
    "kind": "agent_action",
    "iteration": 2,
    "tool": "Calculator",
    "tool_input": "25 * 1.05",
    "log": "Action: Calculator",
    "frames": ["iter_events", "_call", "_take_next_step", "_iter_next_step"],
    "source": {"file": "executor/agent_executor.py", "line": 141, "function": "_iter_next_step"},
}


def holds(text: str, event: dict = ACTION) -> bool:
    return Condition(text).matches(resolve_in(event, position=event.get("seq")))


@pytest.mark.parametrize(
    "text, expected",
    [
        ('kind == "agent_action" and tool == "Calculator"', True),
        ('kind == "agent_action" and tool == "Search"', False),
        ("iteration >= 2", True),
        ("iteration > 2", False),
        ("iteration <= 2 and iteration < 3 and iteration != 1", True),
        ('"25" in tool_input', True),
        ('"26" in tool_input', False),
        ('"26" not in tool_input', True),
        ('tool in ["Search", "Calculator"]', True),
        ("not (iteration == 2)", False),
        ('kind == "tool_end" or iteration == 2', True),
        ('"plan" in frames', False),
        ('"_iter_next_step" in frames', True),
        ("function == '_iter_next_step' and line == 141", True),
        ("method == '_iter_next_step' and depth == 4", True),
        ('observation == "x"', False),  # a missing field compares False ...
        ('not observation == "x"', True),  # ... so its negation is True
        ('observation != "x"', False),
        ("seq == 10", True),
        ('tool_input == "25 \\" * 1.05"', False),
    ],
)
def test_conditions_evaluate_like_the_help_says(text, expected):
    assert holds(text) is expected


def test_and_binds_tighter_than_or_and_parentheses_override():
    assert holds('kind == "x" and iteration == 9 or tool == "Calculator"')
    assert not holds('kind == "x" and (iteration == 9 or tool == "Calculator")')


def test_dotted_fields_and_bare_truthiness():
    step = {
        "kind": "step",
        "action": {"tool": "Search", "tool_input": "q", "log": ""},
        "observation": "o",
        "frames": [],
        "source": {"file": "f", "line": 1, "function": "g"},
    }
    assert holds('action.tool == "Search"', step)
    assert holds('tool == "Search"', step)  # tool means action.tool for a step
    check = {"kind": "finish_check", "is_finish": True, "frames": [], "source": {}}
    assert holds("is_finish", check)
    assert not holds("is_finish", {**check, "is_finish": False})
    assert not holds("handled", check)  # missing


def test_strings_with_markup_and_escapes_are_plain_data():
    event = {**ACTION, "tool_input": "[bold red]x\x1b[31m"}
    assert holds('"[bold red]" in tool_input', event)
    assert holds('tool_input == "[bold red]x\\u"', event) is False


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("kind ==", "expected a field name"),
        ("kind = 'x'", "unexpected '=' at column 6; compare with =="),
        ("iteration >= 'two'", "iteration is a number"),
        ("kind == 3", "kind is text"),
        ("(iteration == 2", "expected ')'"),
        ("iteration == 2 iteration", "expected 'and', 'or'"),
        ("__import__('os').system('x')", "nothing can be called"),
        ("tool in [tool]", "a literal inside"),
    ],
)
def test_bad_conditions_say_what_is_wrong(text, message):
    with pytest.raises(ConditionError) as error:
        Condition(text)
    assert message in str(error.value)


def test_tokenizer_never_executes_anything():
    tokens = tokenize("open('/etc/passwd') == 1")
    assert [t.type for t in tokens][:2] == ["name", "punct"]
    with pytest.raises(ConditionError):
        Condition("open('/etc/passwd') == 1")


def test_missing_sentinel_compares_false_everywhere():
    resolve = resolve_in({"kind": "llm_start", "frames": [], "source": {}})
    assert resolve("tool") is MISSING
    for op in ("==", "!=", "<", ">=", "in", "not in"):
        assert not Condition(f"nothing {op} 1" if "in" not in op else f"1 {op} nothing").matches(resolve)


@pytest.fixture
def rose():
    with TraceFile(ROSE) as trace:
        yield trace, TraceIndex.build(trace)


@pytest.mark.parametrize(
    "text",
    [
        'kind == "agent_action" and tool == "Calculator"',
        "iteration >= 2",
        'tool in ["Search"]',
        '"25" in tool_input',
        'not (kind == "llm_start")',
        'kind == "step" or "26.25" in observation',
        'method == "call_model" and iteration == 2',
        '"calculate" in frames',
        "depth > 5",
        "seq < 4",
        f"line == {FINISH_CHECK_LINE} and is_finish",
        "iteration in [1, 3]",
        '"Observation: 1." in prompt',
    ],
)
def test_vector_plan_agrees_with_event_by_event_evaluation(rose, text):
    trace, index = rose
    condition = Condition(text)
    one_by_one = [condition.matches(resolve_in(trace.fields(i), i)) for i in range(len(trace))]
    mask, exact = condition.plan(index, 0, len(trace))
    if exact:
        assert list(mask) == one_by_one
    else:
        assert all(mask[i] for i, hit in enumerate(one_by_one) if hit)  # a superset
    assert any(one_by_one)


def test_vector_plan_is_exact_for_index_fields_and_narrow_for_payload_fields(rose):
    _trace, index = rose
    _mask, exact = Condition('tool == "Search" and iteration == 1').plan(index, 0, len(index))
    assert exact
    mask, exact = Condition('"25" in tool_input').plan(index, 0, len(index))
    assert not exact
    kinds = {index.kind(i) for i in np.flatnonzero(mask)}
    assert kinds == {"agent_action", "tool_start"}  # only kinds that have tool_input


@pytest.mark.parametrize(
    "spec",
    [
        "if " + "(" * 250 + "kind" + ")" * 250,
        "if " + "not " * 5000 + "kind",
        "if iteration == " + "9" * 4300,
        "if iteration == " + "9" * 4301,
        "iteration=" + "9" * 4301,
        "iteration=²",
        "iteration=٣",
        "if iteration == ²",
        "if iteration == ٣",
        "ignore=² kind=tool_end",
        "line=executor/agent_executor.py:²",
    ],
)
def test_hostile_conditions_are_one_short_line_never_a_traceback(spec):
    with pytest.raises(BreakpointSpecError) as refused:
        parse_spec(spec)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 300


def test_reasonable_nesting_still_parses_and_evaluates():
    condition = Condition('not not (((iteration >= 2))) and not (kind == "llm_start")')
    assert condition.matches(lambda name: {"iteration": 3, "kind": "tool_end"}.get(name, MISSING))


def test_state_is_a_derived_field_usable_in_conditions():
    from tracer.debug.conditions import Condition, ConditionError, resolve_in

    summary_call = {
        "kind": "llm_start",
        "frames": ["iter_events", "_call", "plan", "fit", "_summarize", "call_chat_model"],
    }
    plan_call = {"kind": "llm_start", "frames": ["iter_events", "_call", "plan", "call_chat_model"]}
    condition = Condition('state == "summarizing"')
    assert condition.matches(resolve_in(summary_call)) and not condition.matches(resolve_in(plan_call))
    assert Condition('state == "finished"').matches(
        resolve_in({"kind": "finish_check", "frames": [], "is_finish": True})
    )
    with pytest.raises(ConditionError, match="not a loop state"):
        Condition('state == "summarising"')
