"""Tool-calling recordings replay offline: recorded tool calls answer, lanes compare in call order."""

import json

import pytest

from executor import Tool
from executor.events import event_from_json
from tests.helpers.loop_builders import run_collecting
from tests.helpers.tool_calling_builders import calls, tool_calling_executor
from tracer.replay.recorded_answers import ReplayDivergence, ReplayModel, cassette_tools
from tracer.replay.verify import compare_runs
from tracer.trace.normalise import in_call_order


def upper_tool():
    return Tool(name="upper", description="upper-cases text", func=str.upper, deterministic=False)


def record():
    replies = [
        calls(
            ("a", "upper", {"tool_input": "paris"}),
            ("b", "upper", {"tool_input": "rome"}),
            ("c", "upper", {"tool_input": "oslo"}),
        ),
        "PARIS ROME OSLO",
    ]
    executor, _ = tool_calling_executor(replies, [upper_tool()])
    _result, events, error = run_collecting(executor)
    assert error is None
    return [event_from_json(json.dumps(e.model_dump(mode="json"))) for e in events]


def test_a_parallel_recording_replays_from_the_cassette_and_compares_equal():
    recorded = record()
    executor, _ = tool_calling_executor([], [upper_tool()])
    executor = executor.with_overrides(tools=cassette_tools(executor.tools, recorded))
    executor.agent.model = ReplayModel(recorded)
    result, rerun, error = run_collecting(executor)
    assert error is None and result["output"] == "PARIS ROME OSLO"
    assert compare_runs(recorded, rerun) is None
    assert [e.tool_call_id for e in rerun if e.kind == "step"] == ["a", "b", "c"]


def test_changed_messages_diverge_at_the_model_call():
    recorded = record()
    executor, _ = tool_calling_executor([], [upper_tool()], system_prompt="Something else.")
    executor.agent.model = ReplayModel(recorded)
    _, _, error = run_collecting(executor)
    assert isinstance(error, ReplayDivergence) and "messages of model call #1" in str(error)


def lane(seq, call_id, kind="tool_start"):
    return {"seq": seq, "kind": kind, "tool_call_id": call_id}


def test_in_call_order_lays_lanes_out_in_planned_order_and_keeps_the_numbers():
    planned = [
        {"seq": 0, "kind": "agent_action", "tool_call_id": "x"},
        {"seq": 1, "kind": "agent_action", "tool_call_id": "y"},
    ]
    interleaved = [
        lane(2, "y"),
        lane(3, "x"),
        lane(4, "y", "tool_end"),
        lane(5, "x", "tool_end"),
        {"seq": 6, "kind": "step"},
    ]
    ordered = in_call_order(planned + interleaved)
    assert [(e["seq"], e.get("tool_call_id"), e["kind"]) for e in ordered[2:]] == [
        (2, "x", "tool_start"),
        (3, "x", "tool_end"),
        (4, "y", "tool_start"),
        (5, "y", "tool_end"),
        (6, None, "step"),
    ]


def test_a_different_order_inside_a_lane_is_still_a_difference():
    planned = [{"seq": 0, "kind": "agent_action", "tool_call_id": "x"}]
    one = in_call_order(planned + [lane(1, "x"), lane(2, "x", "tool_end")])
    other = in_call_order(planned + [lane(1, "x", "tool_end"), lane(2, "x")])
    assert one != other


@pytest.mark.parametrize("wrong", ["lisbon"])
def test_a_tool_input_the_recording_lacks_diverges(wrong):
    recorded = record()
    tool = cassette_tools([upper_tool()], recorded)[0]
    with pytest.raises(ReplayDivergence, match="input of 'upper' call #1"):
        tool.func(wrong)


def test_an_observation_fork_of_one_concurrent_call_changes_only_that_lane(tmp_path):
    from tests.helpers.paths import FIXTURES
    from tracer.replay.fork import fork_trace
    from tracer.trace.reader import load_trace

    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    gz_start = next(e.seq for e in events if e.kind == "tool_start" and e.tool_call_id == "call_gz")
    result = fork_trace(
        FIXTURES / "parallel_tools.jsonl",
        gz_start,
        observation="Guangzhou: sunny, 26°C",
        output=tmp_path / "fork.jsonl",
    )
    steps = {e.tool_call_id: e.observation for e in result.trace.events if e.kind == "step"}
    assert steps["call_gz"] == "Guangzhou: sunny, 26°C"
    assert steps["call_bj"].startswith("Beijing: sunny") and steps["call_sh"].startswith("Shanghai: light rain")
    second = [e for e in result.trace.events if e.kind == "llm_start"][1]
    assert {"role": "tool", "tool_call_id": "call_gz", "content": "Guangzhou: sunny, 26°C"} in second.messages


def test_a_reply_fork_of_a_tool_calling_run_takes_the_new_reply(tmp_path):
    from tests.helpers.paths import FIXTURES
    from tracer.replay.fork import fork_trace

    result = fork_trace(
        FIXTURES / "structured_output.jsonl",
        9,
        reply='{"city": "Beijing", "temperature_c": 18, "go_for_a_walk": true, "reason": "fine"}',
        output=tmp_path / "fork.jsonl",
    )
    assert result.error is None
    end = result.trace.events[-1]
    assert end.kind == "chain_end" and end.outputs["output"].temperature_c == 18
    assert not any(e.kind == "parse_error" for e in result.trace.events)


def test_nested_model_calls_of_concurrent_tools_replay_whichever_thread_asks_first():
    import threading

    from executor import ModelReply, ScriptedModel, llm_math_tool
    from tests.helpers.tool_calling_builders import tool_calling_executor as build

    class Routed(ScriptedModel):
        """Answers each calculator question with its own expression, in whatever order they arrive."""

        def generate(self, prompt, stop):
            return ModelReply("```text\n2 * 3\n```" if "two times three" in prompt else "```text\n4 + 5\n```")

    replies = [
        calls(
            ("x", "Calculator", {"tool_input": "two times three"}),
            ("y", "Calculator", {"tool_input": "four plus five"}),
        ),
        "6 and 9",
    ]
    model = Routed(replies)
    executor, _ = build([], [llm_math_tool(model)])
    executor.agent.model = model
    _, recorded, error = run_collecting(executor)
    assert error is None
    recorded = [event_from_json(json.dumps(e.model_dump(mode="json"))) for e in recorded]
    # the two nested calls start in the recorded order; make the replay's threads ask in the other order
    first_lane = next(e.tool_call_id for e in recorded if e.kind == "llm_start" and e.tool_call_id)
    for _ in range(3):
        replay = ReplayModel(recorded)
        gate = threading.Event()
        original = replay.generate

        def late_first(prompt, stop, original=original, gate=gate):
            if not stop:  # a plan call
                return original(prompt, stop)
            if ("two times three" in prompt) == (first_lane == "x"):
                gate.wait(1.0)  # the recorded-first call waits for the other
                return original(prompt, stop)
            try:
                return original(prompt, stop)
            finally:
                gate.set()

        replay.generate = late_first
        executor, _ = build([], [llm_math_tool(replay)])
        executor.agent.model = replay
        _result, rerun, error = run_collecting(executor)
        assert error is None, error
        assert compare_runs(recorded, rerun) is None
