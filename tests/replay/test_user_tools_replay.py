"""A user's structured, async and LangChain-shaped tools replay from a cassette and fork; callee compares loosely."""

import asyncio

from executor import AgentExecutor, ManualClock, ScriptedModel, create_react_agent, tool
from tracer.agents.user_agent import user_build
from tracer.replay.builder import replayed_executor
from tracer.replay.fork import fork_trace
from tracer.replay.verify import compare_runs, recorded_inputs, run_collecting
from tracer.trace.normalise import first_difference, normalise_events
from tracer.trace.transitions import Trace
from tracer.trace.writer import TraceWriter

CALLS = []


@tool(deterministic=False)
def quote(item: str, quantity: int) -> str:
    """Quote a price, e.g. {"item": "rose", "quantity": 12}."""
    CALLS.append(("quote", item, quantity))
    return f"{quantity} {item}s: {2.5 * quantity:.2f}"


@tool(deterministic=False)
async def stock(item: str) -> str:
    """Items in stock."""
    await asyncio.sleep(0)
    CALLS.append(("stock", item))
    return f"{item}: 40"


class Discount:
    """LangChain-shaped (name, description, invoke, args_schema absent)."""

    name, description = "Discount", "Today's code."

    def invoke(self, tool_input, config=None):
        CALLS.append(("Discount", tool_input))
        return "SPRING10"


REPLIES = [
    'Action: quote\nAction Input: {"item": "rose", "quantity": 12}',
    "Action: quote\nAction Input: not json",  # refused by the schema: never reaches quote
    "Action: stock\nAction Input: rose",
    "Action: Discount\nAction Input: today",
    "Final Answer: 30.00 with SPRING10",
]


def build(model):
    tools = [quote, stock, Discount()]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, clock=ManualClock(tick=0.001))


def record(path):
    with TraceWriter(path, agent="test:build", clock_tick=0.001) as writer:
        build(ScriptedModel(REPLIES)).invoke({"input": "roses?"}, [writer])
    return Trace.load(path)


def test_structured_async_and_langchain_tools_replay_from_the_cassette_without_running(tmp_path):
    trace = record(tmp_path / "run.jsonl")
    kinds = [(e.kind, getattr(e, "error_type", None)) for e in trace.events if e.kind.startswith("tool_")]
    assert ("tool_error", "ToolInputError") in kinds  # the refused input was recorded
    CALLS.clear()
    rerun = run_collecting(replayed_executor(trace, user_build(build)), recorded_inputs(trace))
    assert rerun.error is None and rerun.divergence is None
    assert compare_runs(trace.events, rerun.events) is None
    assert CALLS == []  # every answer came from the recording
    assert [e.callee.function for e in rerun.events if e.kind == "tool_end"][-1] == "invoke"


def test_a_fork_after_the_structured_call_runs_the_real_tools_with_their_arguments(tmp_path):
    trace = record(tmp_path / "run.jsonl")
    first_quote = next(e.seq for e in trace.events if e.kind == "tool_end" and e.tool == "quote")
    CALLS.clear()
    result = fork_trace(
        trace, first_quote, observation="12 roses: 99.00", output=tmp_path / "fork.jsonl", build_executor=build
    )
    assert result.error is None
    observations = [e.observation for e in result.trace.events if e.kind == "tool_end"]
    assert observations[0] == "12 roses: 99.00" and observations[-1] == "SPRING10"
    assert "stock" in [e.tool for e in result.trace.events if e.kind == "tool_end"]


def _tool_end(callee):
    return {"kind": "tool_end", "seq": 3, "tool": "quote", "observation": "x", "callee": callee}


def test_callee_line_and_an_absolute_folder_do_not_count_as_divergence():
    here = {"file": "/home/ann/shop/florist.py", "line": 10, "function": "quote", "qualname": "quote"}
    there = {**here, "file": "/tmp/ci-4411/florist.py", "line": 14}
    assert first_difference(normalise_events([_tool_end(here)]), normalise_events([_tool_end(there)])) is None
    renamed = {**there, "function": "quote_v2", "qualname": "quote_v2"}
    difference = first_difference(normalise_events([_tool_end(here)]), normalise_events([_tool_end(renamed)]))
    assert difference is not None and difference.field == "callee.function"


def test_a_trace_recorded_without_callee_matches_a_rerun_that_names_one():
    callee = {"file": "florist.py", "line": 3, "function": "quote", "qualname": "quote"}
    assert first_difference(normalise_events([_tool_end(None)]), normalise_events([_tool_end(callee)])) is None
    old = {k: v for k, v in _tool_end(None).items() if k != "callee"}
    assert first_difference(normalise_events([old]), normalise_events([_tool_end(callee)])) is None
    assert first_difference(normalise_events([_tool_end(callee)]), normalise_events([_tool_end(None)])) is not None


def flaky_live_model(replies):
    """A live model (so the executor's default policy retries it) whose first call fails for a moment."""
    from executor.recovery.retry import TransientError
    from tests.helpers.failing_models import FailsOnceModel

    return FailsOnceModel(replies, TransientError("503 for a moment"), live=True)


def test_a_trace_recorded_in_python_replays_its_retries_under_the_policy_the_run_had(tmp_path):
    path = tmp_path / "flaky.jsonl"
    executor = build(flaky_live_model(["Final Answer: 30.00"]))  # the default policy, as the CLI's
    with TraceWriter(path, agent="test:build", clock_tick=0.001) as writer:  # no retry policy in the header
        executor.invoke({"input": "roses?"}, [writer])
    trace = Trace.load(path)
    assert [e.kind for e in trace.events].count("retry") == 1 and not trace.header.retry_policy
    assert trace.events[0].settings["retry_policy"]["max_retries"] == 6
    rerun = run_collecting(replayed_executor(trace, user_build(build)), recorded_inputs(trace))
    assert rerun.error is None
    assert compare_runs(trace.events, rerun.events) is None


def test_a_recording_made_before_chain_start_named_its_policy_still_matches(tmp_path):
    tmp_path / "flaky.jsonl"
    executor = build(flaky_live_model(["Final Answer: 30.00"]))
    events = []
    executor.invoke({"input": "roses?"}, [events.append])
    old = [
        events[0].model_copy(update={"settings": {k: v for k, v in events[0].settings.items() if k != "retry_policy"}}),
        *events[1:],
    ]
    assert compare_runs(old, events) is None
    changed = {**events[0].settings, "max_iterations": 3}
    assert compare_runs([events[0].model_copy(update={"settings": changed}), *events[1:]], events) is not None
