"""An OpenAI Agents SDK agent that uses another agent as a tool (Agent.as_tool), recorded through the real SDK
against a local chat-completions server: the inner agent's model calls and tool calls are events of the same trace,
inside the outer tool call, and verify and fork re-run both agents offline, the inner one on its recorded replies."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import (
    KEY,
    check_verify_is_offline,
    narrated,
    start_project,
    tool_messages,
    tool_result_of,
)
from tracer import Trace
from tracer.report.narration.ledger import Ledger

AGENT = textwrap.dedent(
    """
    import os

    from agents import Agent, OpenAIChatCompletionsModel, function_tool
    from openai import AsyncOpenAI

    FORECASTS = {"Beijing": "sunny, 18°C", "Shanghai": "light rain, 16°C"}


    @function_tool
    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    forecaster = Agent(
        name="forecaster", instructions="Look the weather up.", tools=[get_weather],
        model=OpenAIChatCompletionsModel(model="inner-model", openai_client=client),
    )
    agent = Agent(
        name="planner", instructions="Ask the forecaster.",
        tools=[forecaster.as_tool("ask_forecaster", "Asks the weather forecaster one question.")],
        model=OpenAIChatCompletionsModel(model="outer-model", openai_client=client),
    )
    """
)
QUESTION = "Should I take an umbrella in Beijing?"
INNER_ANSWER = "Beijing is sunny, 18°C."
ANSWER = "No umbrella needed: Beijing is sunny."
REPLIES = [
    ToolCalls((("call_f", "ask_forecaster", json.dumps({"input": "Weather in Beijing?"})),)),  # the planner
    ToolCalls((("call_w", "get_weather", json.dumps({"city": "Beijing"})),)),  # the forecaster, inside call_f
    INNER_ANSWER,  # the forecaster's answer: call_f's result
    ANSWER,  # the planner again
]


@pytest.fixture
def project(tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT, "OpenAI Agents SDK", REPLIES)
    yield project
    project.server.stop()


def test_the_inner_agents_model_and_tool_calls_are_events_inside_the_outer_tool_call(capsys, project):
    trace = project.record(capsys, question=QUESTION)
    models = ["outer-model", "inner-model", "inner-model", "outer-model"]
    assert [r.body["model"] for r in project.server.received] == models
    rounds = [(e.kind, getattr(e, "model", None) or getattr(e, "tool_call_id", None)) for e in trace.events]
    wanted = [
        ("llm_start", "outer-model"),
        ("tool_start", "call_f"),
        ("llm_start", "inner-model"),
        ("tool_start", "call_w"),
        ("tool_end", "call_w"),
        ("llm_start", "inner-model"),
        ("tool_end", "call_f"),
        ("llm_start", "outer-model"),
    ]
    assert [r for r in rounds if r[0] in ("llm_start", "tool_start", "tool_end")] == wanted
    inner = [e for e in trace.events if e.kind == "llm_start" and e.model == "inner-model"]
    assert inner[0].messages[0] == {"role": "system", "content": "Look the weather up."}
    assert [t["function"]["name"] for t in inner[0].tools] == ["get_weather"]
    assert tool_result_of(trace, "call_w").observation == "Beijing: sunny, 18°C"
    assert tool_result_of(trace, "call_w").callee.function == "get_weather"  # the inner agent's tool, for Source
    assert tool_result_of(trace, "call_f").observation == INNER_ANSWER
    assert trace.events[-1].kind == "chain_end" and trace.events[-1].outputs["output"] == ANSWER
    assert KEY not in (project.folder / "run.jsonl").read_text(encoding="utf-8")
    told = narrated(trace)  # the forecaster's answer, then the tool result it became, then the planner's round
    inner_reply, result = f"Reply: {INNER_ANSWER}", f"[call_f] Observation: {INNER_ANSWER}"
    assert told.index("[call_w] Observation: Beijing: sunny") < told.index(inner_reply) < told.index(result)
    assert "round 2 · inside tool call call_f, the model is asked inner-model" in told  # the forecaster's rounds
    assert told.index(result) < told.index("round 4")
    assert any(row.startswith("model calls") and row.endswith("4") for row in Ledger.of(trace.events).lines())


def test_verify_answers_the_inner_agent_from_the_recording_too(capsys, monkeypatch, project):
    project.record(capsys, question=QUESTION)
    project.server.stop()  # and verify opens no socket: the inner agent's model is answered from the recording
    check_verify_is_offline(capsys, monkeypatch)


def test_a_fork_of_the_inner_tool_call_reaches_the_inner_agents_next_model_call(capsys, project):
    trace = project.record(capsys, question=QUESTION)
    sent = len(project.server.received)
    at = tool_result_of(trace, "call_w").seq
    argv = ["fork", "run.jsonl", "--at", str(at), "--observation", "Beijing: hail, 2°C", "-o", "fork.jsonl"]
    code, _, err = loopscope(capsys, *argv, "--agent", "my_app.py:agent")
    assert code == 0, err
    fork = Trace.load(project.folder / "fork.jsonl")
    assert tool_result_of(fork, "call_w").observation == "Beijing: hail, 2°C"
    after = [e for e in fork.events if e.kind == "llm_start"][2]  # the forecaster's second call
    assert after.model == "inner-model" and tool_messages(after.messages) == {"call_w": "Beijing: hail, 2°C"}
    assert len(project.server.received) == sent  # offline: nothing more reached the server


def test_the_debugger_re_runs_the_inner_agent_in_step_with_the_recording(capsys, project):
    """debug --agent's store: every event, the inner agent's included, has the re-run's frames, and the inner
    model call's frames hold what the planner asked the forecaster (the inner run's own input), the innermost of them
    (the SDK's frame that asked the model) in the input it sent."""
    from tracer.debug.event_store import ReplayStore
    from tracer.trace.reader import TraceFile

    trace = project.record(capsys, question=QUESTION)
    project.server.stop()
    store = ReplayStore(TraceFile(project.folder / "run.jsonl"), ["my_app.py:agent"])
    try:
        frames = [store.reenactment.frames_at(i) for i in range(len(store))]
        assert store.reenactment.problem is None, store.reenactment.problem
        assert all(f is not None for f in frames)
        inner = next(e.seq for e in trace.events if e.kind == "llm_start" and e.model == "inner-model")
        assert "Weather in Beijing?" in " ".join(value for frame in frames[inner] or () for _, value in frame.locals)
        asking = (frames[inner] or ())[-1]  # the SDK's frame that asked the inner model, with what it sent
        assert not asking.file.startswith("tracer/") and "Weather in Beijing?" in dict(asking.locals)["input"]
    finally:
        store.reenactment.close()
