"""Snapshots name a provider's tool-call ids and a foreign runtime's run ids by order of first appearance, so a
re-record that only got new ids leaves the snapshot as it was; the trace keeps the real ids."""

from __future__ import annotations

import json
import shutil

from tests.helpers.paths import FIXTURES
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor
from tracer.testing.snapshot_extension import TraceEventsSnapshotExtension
from tracer.trace.stable_ids import with_stable_ids
from tracer.trace.transitions import Trace
from tracer.trace.writer import TraceWriter

pytest_plugins = ["pytester"]


def weather(city: str) -> str:
    return {"Beijing": "sunny", "Shanghai": "rain"}.get(city, "unknown")


def recorded(path, ids, cities=("Beijing", "Shanghai")) -> Trace:
    """A tool-calling run whose model named its two parallel calls `ids`, written to `path`."""
    replies = [
        calls(*((call_id, "weather", {"city": city}) for call_id, city in zip(ids, cities))),
        "Beijing is sunny; walk there.",
    ]
    executor, _ = tool_calling_executor(replies, [text_tool("weather", weather)])
    with TraceWriter(path) as writer:
        executor.invoke({"input": "Where should I walk?"}, [writer])
    return Trace.load(path)


def events_snapshot(trace: Trace) -> str:
    return TraceEventsSnapshotExtension().serialize(trace)


def test_recordings_differing_only_in_provider_ids_store_the_same_snapshot(tmp_path):
    first = recorded(tmp_path / "a.jsonl", ["call_0_0", "call_0_1"])
    again = recorded(tmp_path / "b.jsonl", ["call_Xq3vz", "call_9LmPa"])
    assert events_snapshot(first) == events_snapshot(again)
    text = events_snapshot(first)
    assert '"id": "call_1"' in text and 'tool_call_id: "call_2"' in text and "[tool call_2]" in text
    assert "call_0_1" not in text and "call_9LmPa" not in events_snapshot(again)
    # The trace files keep what the provider said.
    assert "call_9LmPa" in (tmp_path / "b.jsonl").read_text(encoding="utf-8")


def test_a_real_difference_still_changes_the_snapshot(tmp_path):
    first = recorded(tmp_path / "a.jsonl", ["call_0_0", "call_0_1"])
    other_city = recorded(tmp_path / "b.jsonl", ["call_0_0", "call_0_1"], cities=("Beijing", "Hangzhou"))
    assert events_snapshot(first) != events_snapshot(other_city)


def test_names_follow_first_appearance_so_swapped_ids_mean_the_same_run():
    one = [{"kind": "llm_end", "tool_calls": [{"id": "a"}, {"id": "b"}]}, {"kind": "tool_end", "tool_call_id": "b"}]
    swapped = [{"kind": "llm_end", "tool_calls": [{"id": "b"}, {"id": "a"}]}, {"kind": "tool_end", "tool_call_id": "a"}]
    assert with_stable_ids(one) == with_stable_ids(swapped)
    answered_first = [{"kind": "llm_end", "tool_calls": [{"id": "a"}, {"id": "b"}]}, {"tool_call_id": "a"}]
    assert with_stable_ids(one) != with_stable_ids(answered_first)  # a different call answered: a different run


def test_a_prompt_not_rendered_from_its_messages_is_left_as_it_is():
    event = {"kind": "llm_start", "prompt": "my own text id=x", "messages": [{"role": "tool", "tool_call_id": "x"}]}
    assert with_stable_ids([event])[0]["prompt"] == "my own text id=x"


def test_langchain_run_ids_are_named_too(tmp_path):
    original = FIXTURES / "langchain" / "rose_pricing.jsonl"
    lines = original.read_text(encoding="utf-8").splitlines()
    run_ids = {event["origin"]["run_id"] for event in map(json.loads, lines[1:]) if event.get("origin")}
    assert len(run_ids) > 3
    text = "\n".join(lines)
    for number, run_id in enumerate(sorted(run_ids)):  # every LangChain run id replaced by a new one
        text = text.replace(run_id, f"00000000-0000-4000-8000-{number:012d}")
    (tmp_path / "again.jsonl").write_text(text + "\n", encoding="utf-8")
    snapshot = events_snapshot(Trace.load(original))
    assert snapshot == events_snapshot(Trace.load(tmp_path / "again.jsonl"))
    assert '"run_id": "run_1"' in snapshot and not any(run_id in snapshot for run_id in run_ids)


PROJECT_TEST = """
import itertools, json, uuid
from executor import AgentExecutor, ModelReply, ScriptedModel, Tool, ToolCall, create_tool_calling_agent

def weather(city):
    return {"Beijing": "sunny", "Shanghai": "rain"}[city]

def build(model):
    tools = [Tool("weather", "Weather of one city.", weather, deterministic=False)]
    return AgentExecutor(agent=create_tool_calling_agent(model, tools, "Be brief."), tools=tools)

def live_model():  # like a real provider: new tool-call ids on every run
    ids = [f"call_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    calls = tuple(ToolCall(i, "weather", json.dumps({"city": c})) for i, c in zip(ids, ["Beijing", "Shanghai"]))
    return ScriptedModel([ModelReply("", tool_calls=calls), "Walk in Beijing."])

def test_walk(loopscope_cassette, trace_events_snapshot):
    trace = loopscope_cassette.run(build, {"input": "Where should I walk?"}, live_model=live_model)
    assert trace == trace_events_snapshot
"""


def test_re_recording_with_new_provider_ids_keeps_the_events_snapshot(pytester):
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_walk=PROJECT_TEST)
    cassette = pytester.path / "cassettes" / "test_walk" / "test_walk.jsonl"
    pytester.runpytest("-p", "no:cacheprovider", "--loopscope-record=once", "--snapshot-update").assert_outcomes(
        passed=1
    )
    first = cassette.read_text(encoding="utf-8")
    shutil.rmtree(pytester.path / "__pycache__", ignore_errors=True)
    result = pytester.runpytest("-p", "no:cacheprovider", "--loopscope-record=rewrite")
    result.assert_outcomes(passed=1)  # no --snapshot-update: the stored snapshot still matches
    again = cassette.read_text(encoding="utf-8")
    ids = [json.loads(line).get("tool_call_id") for line in again.splitlines()[1:]]
    assert first != again and any(i and i.startswith("call_") and i not in ("call_1", "call_2") for i in ids)
