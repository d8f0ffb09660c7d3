"""LoopscopeCallbackHandler on LangChain 1.x create_agent runs (LangGraph): rounds, parallel calls, middleware."""

from __future__ import annotations

import itertools
import random
import threading
from unittest import mock

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import (
    ModelCallLimitMiddleware,
    ModelFallbackMiddleware,
    ModelRetryMiddleware,
    ToolRetryMiddleware,
)
from langchain_core.messages import AIMessage

from executor import ManualClock
from executor.states import state_of
from tracer import LoopscopeCallbackHandler, Trace, diff_traces
from tracer.debug.session import callee_frames
from tracer.debug.source_map import read_source
from tracer.trace.run_inputs import question_of
from tracer.tui.launch import build_session
from tracer.tui.views.event_summary import summary
from tracer.tui.views.variables_view import variables_text
from tutorials.langchain_chat import ScriptedChatModel, tool_call_reply

QUESTION = "What is the weather in Beijing and Shanghai?"
FORECASTS = {"Beijing": "Beijing: sunny, 18°C", "Shanghai": "Shanghai: light rain, 16°C"}
shanghai_done = threading.Event()


def get_weather(city: str) -> str:
    """Today's weather for one city."""
    if city == "Beijing":  # Beijing answers last, so the calls finish in the other order than asked
        shanghai_done.wait(timeout=5)
    if city == "Shanghai":
        shanghai_done.set()
    if city == "Guangzhou":
        raise TimeoutError("the weather service timed out")
    return FORECASTS[city]


def two_calls(final: str = "Beijing is sunny; take an umbrella in Shanghai.") -> list[AIMessage]:
    return [
        tool_call_reply(("c1", "get_weather", {"city": "Beijing"}), ("c2", "get_weather", {"city": "Shanghai"})),
        AIMessage(final),
    ]


def record(path, model, middleware=(), clock=None) -> Trace:
    shanghai_done.clear()
    agent = create_agent(model, tools=[get_weather], middleware=list(middleware))
    extra = {"clock": clock.monotonic} if clock is not None else {}
    with LoopscopeCallbackHandler(path, raise_error=True, **extra) as handler:
        agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, {"callbacks": [handler]})
    return Trace.load(path)


@pytest.fixture
def parallel(tmp_path) -> Trace:
    return record(tmp_path / "parallel.jsonl", ScriptedChatModel(replies=two_calls()))


def test_a_create_agent_run_takes_the_tool_calling_loops_transitions(parallel):
    assert parallel.labels() == [
        "chain_start",
        "plan",
        "AgentAction(get_weather)",
        "AgentAction(get_weather)",
        "tool(get_weather)",
        "tool(get_weather)",
        "step",
        "step",
        "finish_check(False)",
        "plan",
        "AgentFinish",
        "finish_check(True)",
        "chain_end",
    ]
    kinds = [e.kind for e in parallel.events]
    assert [e.iteration for e in parallel.events] == [0] + [1] * (kinds.index("llm_start", 2) - 1) + [2] * (
        len(kinds) - kinds.index("llm_start", 2)
    )
    finish = next(e for e in parallel.events if e.kind == "agent_finish")
    assert finish.return_values == {"output": "Beijing is sunny; take an umbrella in Shanghai."}


def test_each_model_call_has_its_messages_tools_reply_and_tool_calls(parallel):
    first, second = [e for e in parallel.events if e.kind == "llm_start"]
    assert first.messages == [{"role": "user", "content": QUESTION}]
    assert [t["function"]["name"] for t in first.tools] == ["get_weather"]
    assert "[user]\n" + QUESTION in first.prompt
    reply = next(e for e in parallel.events if e.kind == "llm_end")
    assert reply.text == ""
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("c1", "get_weather", '{"city": "Beijing"}'),
        ("c2", "get_weather", '{"city": "Shanghai"}'),
    ]
    # The second call is sent the first reply's calls and both results, each under its id.
    assert [m["role"] for m in second.messages] == ["user", "assistant", "tool", "tool"]
    results = {m["tool_call_id"]: m["content"] for m in second.messages if m["role"] == "tool"}
    assert results == {"c1": FORECASTS["Beijing"], "c2": FORECASTS["Shanghai"]}


def test_parallel_calls_are_lanes_and_steps_follow_the_replys_order(parallel):
    events = parallel.events
    assert [e.tool_call_id for e in events if e.kind == "agent_action"] == ["c1", "c2"]
    ends = [e for e in events if e.kind == "tool_end"]
    assert [e.tool_call_id for e in ends] == ["c2", "c1"]  # Shanghai finished first
    assert {e.tool_call_id: e.observation for e in ends} == {"c1": FORECASTS["Beijing"], "c2": FORECASTS["Shanghai"]}
    steps = [e for e in events if e.kind == "step"]
    assert [(s.tool_call_id, s.n_steps, s.observation) for s in steps] == [
        ("c1", 1, FORECASTS["Beijing"]),
        ("c2", 2, FORECASTS["Shanghai"]),
    ]
    starts = [e for e in events if e.kind == "tool_start"]
    assert sorted(e.tool_input for e in starts) == ['{"city": "Beijing"}', '{"city": "Shanghai"}']


def test_states_are_the_loops(parallel):
    states = {e.kind: state_of(e) for e in parallel.events}
    assert states["agent_action"] == "planning" and states["llm_start"] == "planning"
    assert states["tool_start"] == "acting" and states["tool_end"] == "acting"
    assert states["step"] == "observing" and states["agent_finish"] == "finished"


def test_frames_name_langgraphs_nodes_with_langchains_source(parallel):
    model_call = next(e for e in parallel.events if e.kind == "llm_start")
    assert "model" in model_call.frames and "model_node" in model_call.frames
    assert "model_.invoke(messages)" in read_source(model_call.source.file).lines[model_call.source.line - 1]
    node = next(f for f in model_call.stack if f.function == "model")
    assert node.file == "langgraph/pregel/_retry.py"
    assert "task.proc.invoke" in read_source(node.file).lines[node.line - 1]
    tool_start = next(e for e in parallel.events if e.kind == "tool_start")
    # A worker thread's frames follow those of the run's thread that dispatched the node.
    assert tool_start.frames[:3] == ("invoke", "stream", "tools") and "_run_one" in tool_start.frames
    check = next(e for e in parallel.events if e.kind == "finish_check")
    assert check.frames[-1] == "model_to_tools"
    assert "len(last_ai_message.tool_calls) == 0" in read_source(check.source.file).lines[check.source.line - 1]


def test_the_users_tool_function_is_the_callee_shown_below_langchains_frames(parallel):
    tool_start = next(e for e in parallel.events if e.kind == "tool_start")
    assert tool_start.callee.function == "get_weather" and tool_start.callee.file.endswith("test_create_agent.py")
    shown = callee_frames(tool_start)
    assert [f.function for f in shown] == ["get_weather"] and shown[0].callee


def test_question_variables_and_summary_come_from_the_graphs_messages(parallel):
    assert question_of(parallel.events[0].inputs) == QUESTION
    assert summary(parallel.events[0]) == f"question: {QUESTION}"
    assert summary(parallel.events[-1]).startswith("output: Beijing is sunny")
    session = build_session(parallel.path)
    session.goto(next(e.seq for e in parallel.events if e.kind == "step"))
    shown = variables_text(session).plain
    assert 'state["messages"]' in shown and "[4 messages]" in shown and "name_to_tool_map" not in shown
    assert "tool c2: Shanghai: light rain" in shown
    session.goto(next(e.seq for e in parallel.events if e.kind == "tool_start"))
    assert "tool calls out" in variables_text(session).plain


@pytest.mark.slow  # two LangChain create_agent runs: seconds
def test_diff_parts_two_create_agent_runs_where_their_replies_differ(tmp_path, parallel):
    other = record(tmp_path / "other.jsonl", ScriptedChatModel(replies=two_calls("Stay home.")))
    diff = diff_traces(parallel, other)
    assert not diff.same and diff.rows[diff.parted_at].a.label == "plan"
    assert any("reply text differs" in line for line in diff.differences)
    same = record(tmp_path / "same.jsonl", ScriptedChatModel(replies=two_calls()))
    assert diff_traces(parallel, same).same
    asked_else = [
        tool_call_reply(("c1", "get_weather", {"city": "Beijing"}), ("c2", "get_weather", {"city": "Beijing"})),
        AIMessage("x"),
    ]
    calls = diff_traces(parallel, record(tmp_path / "calls.jsonl", ScriptedChatModel(replies=asked_else)))
    assert any("tool calls differ" in line for line in calls.differences)


def retried(tmp_path, name, jitter=False, on_failure="continue") -> Trace:
    clock = ManualClock()
    middleware = ToolRetryMiddleware(
        max_retries=5, backoff_factor=2, initial_delay=1, max_delay=5, jitter=jitter, on_failure=on_failure
    )
    replies = [tool_call_reply(("g1", "get_weather", {"city": "Guangzhou"})), AIMessage("No luck.")]
    with (
        mock.patch("langchain.agents.middleware.tool_retry.time", clock),
        mock.patch("langchain.agents.middleware._retry.random", random.Random(7)),
    ):
        try:
            return record(tmp_path / name, ScriptedChatModel(replies=replies), [middleware], clock)
        except TimeoutError:
            return Trace.load(tmp_path / name)


def test_tool_retry_middleware_attempts_are_retry_events_with_the_wait_taken(tmp_path):
    trace = retried(tmp_path, "steady.jsonl")
    retries = [e for e in trace.events if e.kind == "retry"]
    assert [(r.target, r.name, r.attempt, r.tool_call_id) for r in retries] == [
        ("tool", "get_weather", n, "g1") for n in range(1, 6)
    ]
    assert [r.delay for r in retries] == [1, 2, 4, 5, 5]  # initial_delay × 2^n, capped at max_delay
    assert all(r.error == "TimeoutError: the weather service timed out" for r in retries)
    assert all(r.origin["planned_delay"] == r.delay for r in retries)
    assert retries[0].origin["middleware"]["name"] == "ToolRetryMiddleware" and "wrap_tool_call" in retries[0].frames
    assert len([e for e in trace.events if e.kind == "tool_start"]) == 1  # one call, six attempts
    settings = trace.events[0].settings["middleware"][0]
    assert settings["max_retries"] == 5 and settings["jitter"] is False and settings["on_failure"] == "continue"


def test_each_retry_is_stamped_when_its_attempt_failed_so_its_wait_runs_forward_to_the_next_attempt(tmp_path):
    events = retried(tmp_path, "timed.jsonl").events
    retries = [e for e in events if e.kind == "retry"]
    # The ManualClock moves only by the middleware's sleeps: each wait ends where the next one's attempt fails.
    for before, after in itertools.pairwise(retries):
        assert after.t == pytest.approx(before.t + before.delay)
    ended = next(e for e in events if e.kind == "tool_error")
    assert ended.t == pytest.approx(retries[-1].t + retries[-1].delay)


def test_jitter_spreads_each_wait_within_a_quarter_of_the_formula(tmp_path):
    retries = [e for e in retried(tmp_path, "jitter.jsonl", jitter=True).events if e.kind == "retry"]
    formula = [1, 2, 4, 5, 5]
    assert all(0.75 * f <= r.delay <= 1.25 * f for r, f in zip(retries, formula))
    assert [r.delay for r in retries] != formula
    assert [r.delay for r in retries] == pytest.approx([r.origin["planned_delay"] for r in retries])


def test_giving_up_with_continue_makes_the_error_the_observation(tmp_path):
    trace = retried(tmp_path, "continue.jsonl")
    error = next(e for e in trace.events if e.kind == "tool_error")
    assert error.handled and error.error_type == "TimeoutError" and error.tool_call_id == "g1"
    assert error.observation.startswith("Tool 'get_weather' failed after 6 attempts with TimeoutError")
    step = next(e for e in trace.events if e.kind == "step")
    assert step.observation == error.observation and trace.events[-1].kind == "chain_end"


def test_giving_up_with_error_ends_the_run(tmp_path):
    trace = retried(tmp_path, "error.jsonl", on_failure="error")
    assert trace.labels()[-2:] == ["tool_error(get_weather: TimeoutError, raised)", "chain_error(TimeoutError)"]
    assert "tool(get_weather)" not in trace.labels()


class FailingChatModel(ScriptedChatModel):
    failures: int = 1

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if self.failures:
            self.failures -= 1
            raise TimeoutError("the endpoint timed out")
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_model_retry_and_fallback_middleware(tmp_path):
    clock = ManualClock()
    model = FailingChatModel(replies=[AIMessage("Sunny.")], failures=2)
    with mock.patch("langchain.agents.middleware.model_retry.time", clock):
        trace = record(tmp_path / "r.jsonl", model, [ModelRetryMiddleware(max_retries=3, jitter=False)], clock)
    assert trace.labels()[1:4] == ["plan", "retry(llm:scripted-chat #1)", "retry(llm:scripted-chat #2)"]
    assert [e.delay for e in trace.events if e.kind == "retry"] == [1.0, 2.0]
    assert [e.kind for e in trace.events].count("llm_start") == 1

    primary = FailingChatModel(replies=[], failures=1, name_of_model="primary")
    backup = ScriptedChatModel(replies=[AIMessage("From the backup.")], name_of_model="backup")
    trace = record(tmp_path / "f.jsonl", primary, [ModelFallbackMiddleware(backup)])
    fallback = next(e for e in trace.events if e.kind == "fallback")
    assert (fallback.failed_model, fallback.next_model, fallback.error_type) == ("primary", "backup", "TimeoutError")
    assert next(e for e in trace.events if e.kind == "llm_end").answered_by == "backup"


def test_a_call_limit_that_ends_the_run_is_a_limit_and_its_message_the_answer(tmp_path):
    model = ScriptedChatModel(replies=two_calls())
    trace = record(tmp_path / "limit.jsonl", model, [ModelCallLimitMiddleware(run_limit=1, exit_behavior="end")])
    assert trace.labels()[-3:] == ["limit_reached(max_iterations)", "AgentFinish", "chain_end"]
    finish = next(e for e in trace.events if e.kind == "agent_finish")
    assert finish.return_values["output"].startswith("Model call limits exceeded") and finish.iteration == 2
