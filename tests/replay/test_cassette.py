"""Cassettes: recorded replies and tool results answer a re-run, and any departure names its event."""

import pytest

from executor import (
    AgentExecutor,
    ManualClock,
    RetryPolicy,
    ScriptedModel,
    Tool,
    ToolError,
    TransientError,
    create_react_agent,
)
from tests.helpers.loop_builders import action, finish, run_collecting
from tracer.replay.builder import replayed_executor
from tracer.replay.recorded_answers import (
    ReplayDivergence,
    ReplayModel,
    cassette_tools,
    recorded_calls,
)
from tracer.trace.header import TraceHeader
from tracer.trace.transitions import Trace
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing")


def rose_recording():
    return Trace.load(ROSE.fixture).events


def rerun_rose(recorded):
    executor = replayed_executor(Trace(TraceHeader(), recorded), ROSE.executor, clock=ManualClock(tick=0.001))
    return run_collecting(executor, ROSE.question)


def test_a_rerun_from_the_cassette_answers_with_the_recorded_replies_and_finishes_the_same():
    recorded = rose_recording()
    result, events, error = rerun_rose(recorded)
    assert error is None
    assert [e.text for e in events if e.kind == "llm_end"] == [e.text for e in recorded if e.kind == "llm_end"]
    assert result["output"] == recorded[-1].outputs["output"]


def test_search_answers_from_the_recording_while_the_calculator_really_runs():
    recorded = rose_recording()
    search_end = next(e for e in recorded if e.kind == "tool_end" and e.tool == "Search")
    edited = [e.model_copy(update={"observation": "only this"}) if e is search_end else e for e in recorded]
    model = ReplayModel(edited)
    search, calculator = cassette_tools(ROSE.build_tools(model), edited)
    assert search.func("目前市场上玫瑰花的进货价格") == "only this"
    assert calculator.deterministic and calculator.func is not search.func


def test_a_changed_prompt_diverges_naming_the_recorded_event_with_a_diff():
    recorded = rose_recording()
    model = ReplayModel(recorded)
    first_prompt = next(e for e in recorded if e.kind == "llm_start")
    with pytest.raises(ReplayDivergence) as caught:
        model.generate(first_prompt.prompt.replace("as well as you can", "quickly"), ["\nObservation"])
    error = caught.value
    assert (error.seq, error.kind, error.field) == (first_prompt.seq, "llm_start", "prompt")
    message = str(error)
    assert message.startswith(f"event {first_prompt.seq} (llm_start): the prompt of model call #1 differs")
    assert "-Answer the question below as well as you can." in message
    assert "+Answer the question below quickly." in message


def test_more_model_calls_than_recorded_diverge_at_the_end_of_the_recording():
    recorded = rose_recording()
    model = ReplayModel(recorded, strict_prompts=False)
    for _ in recorded_calls(recorded):
        model.generate("anything", [])
    with pytest.raises(ReplayDivergence, match="model call #5, but the recording has only 4 model calls"):
        model.generate("one more", [])


def test_a_changed_tool_input_diverges_at_the_recorded_tool_start():
    recorded = rose_recording()
    search = cassette_tools(ROSE.build_tools(ReplayModel(recorded)), recorded)[0]
    start = next(e for e in recorded if e.kind == "tool_start" and e.tool == "Search")
    with pytest.raises(ReplayDivergence) as caught:
        search.func("tulip prices")
    assert caught.value.seq == start.seq and caught.value.field == "tool_input"
    assert "'tulip prices'" in str(caught.value) or "tulip prices" in str(caught.value)


def test_a_recording_killed_inside_a_model_call_diverges_there_instead_of_crashing():
    recorded = rose_recording()
    last_start = max(i for i, e in enumerate(recorded) if e.kind == "llm_start")
    killed = recorded[: last_start + 1]  # kill -9 while the model was answering: no llm_end, no chain_error
    model = ReplayModel(killed)
    starts = [e for e in killed if e.kind == "llm_start"]
    for start in starts[:-1]:
        model.generate(start.prompt, start.stop)
    with pytest.raises(ReplayDivergence, match="the recording stops inside model call #4, so it has no answer"):
        model.generate(starts[-1].prompt, starts[-1].stop)


def test_a_recording_killed_inside_a_tool_call_diverges_there_instead_of_crashing():
    recorded = rose_recording()
    start = next(e for e in recorded if e.kind == "tool_start" and e.tool == "Search")
    killed = recorded[: start.seq + 1]
    search = cassette_tools(ROSE.build_tools(ReplayModel(killed)), killed)[0]
    with pytest.raises(ReplayDivergence) as caught:
        search.func(start.tool_input)
    assert caught.value.seq == start.seq and caught.value.kind == "end of recording"
    assert "stops inside call #1 of tool 'Search'" in str(caught.value)


def flaky_loop(model, fails: int, handle: bool):
    """A loop whose non-deterministic Lookup tool fails `fails` times with a transient error."""
    calls = {"n": 0}

    def lookup(query):
        calls["n"] += 1
        if calls["n"] <= fails:
            raise TransientError(f"lookup timed out (attempt {calls['n']})")
        if query == "broken":
            raise ToolError("no such product")
        return f"price of {query}: 12"

    tools = [Tool("Lookup", "Looks prices up.", lookup, deterministic=False, handle_tool_error=handle)]
    return AgentExecutor(
        agent=create_react_agent(model, tools),
        tools=tools,
        clock=ManualClock(tick=0.001),
        retry_policy=RetryPolicy(max_retries=3, initial_delay=0.5, jitter=False),
    )


def record_then_replay(replies, fails=0, handle=True):
    _, recorded, error = run_collecting(flaky_loop(ScriptedModel(replies), fails, handle))
    replay_model = ReplayModel(recorded)
    executor = flaky_loop(replay_model, fails=0, handle=handle)  # the live tool would not fail now
    executor.tools = cassette_tools(executor.tools, recorded)
    _, replayed, replay_error = run_collecting(executor)
    return recorded, replayed, error, replay_error


def comparable(events):
    return [(e.kind, getattr(e, "error", None), getattr(e, "observation", None)) for e in events]


def test_recorded_retries_of_a_tool_replay_as_retries():
    recorded, replayed, _, _ = record_then_replay([action("Lookup", "roses"), finish("12")], fails=2)
    assert [e.kind for e in recorded].count("retry") == 2
    assert comparable(replayed) == comparable(recorded)
    assert [e.error for e in replayed if e.kind == "retry"] == [
        "TransientError: lookup timed out (attempt 1)",
        "TransientError: lookup timed out (attempt 2)",
    ]


def test_a_recorded_handled_tool_error_replays_into_the_same_observation():
    recorded, replayed, _, _ = record_then_replay([action("Lookup", "broken"), finish("none")])
    assert any(e.kind == "tool_error" and e.handled for e in recorded)
    assert comparable(replayed) == comparable(recorded)


def test_a_recorded_unhandled_tool_error_ends_the_replay_the_same_way():
    recorded, replayed, error, replay_error = record_then_replay([action("Lookup", "broken")], handle=False)
    assert recorded[-1].kind == "chain_error" and isinstance(error, ToolError)
    assert isinstance(replay_error, ToolError) and str(replay_error) == str(error)
    assert comparable(replayed) == comparable(recorded)


class FlakyModel(ScriptedModel):
    """A scripted model whose first call fails once with a provider-style error."""

    def __init__(self, replies):
        super().__init__(replies)
        self.failed = False

    def generate(self, prompt, stop):
        if not self.failed:
            self.failed = True
            raise type("RateLimitError", (TransientError,), {})("slow down")
        return super().generate(prompt, stop)


def test_a_recorded_model_retry_replays_with_a_stand_in_error_of_the_same_name():
    _, recorded, _ = run_collecting(flaky_loop(FlakyModel([action("Lookup", "roses"), finish("12")]), 0, True))
    (retry,) = [e for e in recorded if e.kind == "retry"]
    assert retry.target == "llm" and retry.error == "RateLimitError: slow down"
    executor = flaky_loop(ReplayModel(recorded), 0, True)
    executor.tools = cassette_tools(executor.tools, recorded)
    _, replayed, error = run_collecting(executor)
    assert error is None and comparable(replayed) == comparable(recorded)
