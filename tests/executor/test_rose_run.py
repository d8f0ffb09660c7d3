"""The rose-pricing run: the book's event order, its ledger, and events that point at real code."""

import ast
from pathlib import Path

import pytest

from executor import ManualClock, ScriptedModel
from executor.events import CLASS_BY_KIND
from executor.paths import PROJECT_ROOT
from tracer.report.narration.ledger import Ledger
from tutorials import get_scenario

ROUND_WITH_TOOL = ["llm_start", "llm_end", "agent_action", "tool_start", "tool_end", "step", "finish_check"]
CALCULATOR_ROUND = [
    "llm_start",
    "llm_end",
    "agent_action",
    "tool_start",
    "llm_start",
    "llm_end",
    "calculator_eval",
    "tool_end",
    "step",
    "finish_check",
]
EXPECTED = (
    ["chain_start"]
    + ROUND_WITH_TOOL
    + CALCULATOR_ROUND
    + ["llm_start", "llm_end", "agent_finish", "finish_check", "chain_end"]
)


@pytest.fixture(scope="module")
def rose():
    scenario = get_scenario("rose-pricing")
    model = ScriptedModel(scenario.replies)
    executor = scenario.executor(model, clock=ManualClock(tick=0.001), return_intermediate_steps=True)
    events = []
    result = executor.invoke(scenario.inputs(), [events.append])
    return result, events, model


def test_event_order_is_the_books_three_rounds(rose):
    _, events, _ = rose
    assert [e.kind for e in events] == EXPECTED
    assert [e.iteration for e in events if e.kind == "finish_check"] == [1, 2, 3]


def test_ledger_plan_three_perform_two_checks_false_false_true(rose):
    ledger = Ledger.of(rose[1])
    assert ledger.plan_calls == 3
    assert ledger.actions_performed == 2
    assert ledger.finish_checks == [False, False, True]
    assert ledger.model_calls == 4


def test_actions_and_the_calculator_answer(rose):
    result, events, _ = rose
    actions = [(e.tool, e.tool_input) for e in events if e.kind == "agent_action"]
    assert actions[0][0] == "Search"
    assert actions[1] == ("Calculator", "25 * 1.05")
    (calc,) = [e for e in events if e.kind == "calculator_eval"]
    assert (calc.expression, calc.result) == ("25 * 1.05", "26.25")
    assert result["intermediate_steps"][1][1] == "Answer: 26.25"
    assert "25~30" in result["intermediate_steps"][0][1]
    assert "26.25" in result["output"]


def test_the_observation_is_the_next_prompt(rose):
    _, events, _ = rose
    plan_prompts = [e.prompt for e in events if e.kind == "llm_start" and "plan" in e.frames]
    tool_ends = [e.observation for e in events if e.kind == "tool_end"]
    assert tool_ends[0] in plan_prompts[1] and tool_ends[0] not in plan_prompts[0]
    assert plan_prompts[2].endswith("Observation: Answer: 26.25\nThought: ")


def test_every_source_line_is_the_yield_that_emitted_the_event(rose):
    _, events, _ = rose
    for event in events:
        line = (PROJECT_ROOT / event.source.file).read_text().splitlines()[event.source.line - 1]
        assert "yield" in line and CLASS_BY_KIND[event.kind].__name__ in line, (event.kind, line)
        assert event.frames[-1] == event.source.function


def test_frames_are_the_real_call_stack(rose):
    _, events, _ = rose
    by_kind = {}
    for event in events:
        by_kind.setdefault(event.kind, event)
    assert by_kind["chain_start"].frames == ("invoke", "iter_events")  # the user's call is outermost
    assert by_kind["finish_check"].frames == ("invoke", "iter_events", "_call")
    assert by_kind["agent_action"].frames == ("invoke", "iter_events", "_call", "_take_next_step", "_iter_next_step")
    assert by_kind["llm_start"].frames[-3:] == ("_iter_next_step", "plan", "call_model")
    assert by_kind["tool_start"].frames[-2:] == ("_perform_agent_action", "run")
    calc = by_kind["calculator_eval"].frames
    assert calc[-1] == "calculate" and calc.index("_perform_agent_action") < calc.index("run")


def test_envelope_is_contiguous_and_timed_by_the_injected_clock(rose):
    _, events, _ = rose
    assert [e.seq for e in events] == list(range(len(events)))
    times = [e.t for e in events]
    assert times == sorted(times) and times[-1] < 1.0
    assert len({e.run_id for e in events}) == 1


def test_the_recorded_fixture_is_this_run(rose):
    from tracer.trace.reader import load_trace

    header, recorded, warning = load_trace(Path(PROJECT_ROOT, "fixtures", "rose_pricing.jsonl"))
    assert warning is None and header.scenario == "rose-pricing"
    assert [e.kind for e in recorded] == EXPECTED
    live_texts = [e.text for e in rose[1] if e.kind == "llm_end"]
    assert [e.text for e in recorded if e.kind == "llm_end"] == live_texts


def test_ledger_tells_a_forced_stop_from_an_answer():
    from tests.helpers.loop_builders import action, scripted_executor

    executor, _ = scripted_executor([action("Echo", str(i)) for i in range(3)], max_iterations=2)
    events = []
    executor.invoke({"input": "q"}, [events.append])
    ledger = Ledger.of(events)
    assert ledger.outcome == "stopped by max_iterations"
    assert ledger.finish_checks == [False, False]


def test_every_emit_names_its_event_on_the_line_the_debugger_marks():
    """A paused event's line is the first line of its `yield run.emit(...)`: it must say which event."""
    unnamed = []
    for path in sorted((PROJECT_ROOT / "executor").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "emit" and node.args:
                cls = ast.get_source_segment(text, node.args[0])
                if cls not in lines[node.lineno - 1]:
                    unnamed.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}")
    assert unnamed == [], "keep the event class on the emit's first line (# fmt: skip): " + ", ".join(unnamed)
