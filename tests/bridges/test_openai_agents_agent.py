"""An OpenAI Agents SDK Agent named MODULE:ATTR: recorded by `loopscope record` against a real AsyncOpenAI client over
HTTP (OpenAIChatCompletionsModel), re-run offline by `verify --agent` and forked through the real agent and tools;
its handoffs and guardrail tripwires recorded as their own events."""

from __future__ import annotations

import importlib
import io
import json
import socket
import sys
import textwrap

import pytest
from rich.console import Console

from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls
from tracer import Trace
from tracer.cli import main
from tracer.report.narration.narrator import Narrator

AGENT = textwrap.dedent(
    """
    import os

    from agents import (
        Agent, GuardrailFunctionOutput, OpenAIChatCompletionsModel, function_tool, input_guardrail,
    )
    from openai import AsyncOpenAI

    FORECASTS = {"Beijing": "sunny, 18°C", "Shanghai": "light rain, 16°C"}


    @function_tool
    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"


    @input_guardrail(run_in_parallel=False)
    def no_passwords(context, agent, text):
        asked = text if isinstance(text, str) else str(text)
        return GuardrailFunctionOutput(output_info={"asked_for": "password"}, tripwire_triggered="password" in asked)


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    agent = Agent(
        name="weather", instructions="Answer about weather.", tools=[get_weather], model=model,
        input_guardrails=[no_passwords],
    )
    triage = Agent(name="triage", instructions="Hand weather questions on.", handoffs=[agent], model=model)
    """
)
QUESTION = "What is the weather in Beijing and Shanghai?"
ANSWER = "Beijing is sunny; take an umbrella in Shanghai."
PARALLEL_CALLS = ToolCalls(
    (
        ("call_b", "get_weather", json.dumps({"city": "Beijing"})),
        ("call_s", "get_weather", json.dumps({"city": "Shanghai"})),
    )
)


def loopscope(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def project_with(tmp_path, monkeypatch, replies):
    server = FakeOpenAIServer(replies).start()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MY_APP_BASE_URL", server.base_url)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    return server


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A user's project: my_app.py beside its trace, its model a real AsyncOpenAI client aimed at a local server."""
    server = project_with(tmp_path, monkeypatch, [PARALLEL_CALLS, ANSWER])
    yield tmp_path, server
    server.stop()


def record(capsys, project, spec="my_app.py:agent", question=QUESTION) -> Trace:
    folder, _ = project
    code, out, err = loopscope(capsys, "record", spec, "--input", question, "-o", "run.jsonl")
    assert code == 0, err
    assert "(OpenAI Agents SDK, with its own model)" in out
    return Trace.load(folder / "run.jsonl")


def narrated(trace: Trace) -> str:
    """The trace as the narrator tells it (what `loopscope` prints for a run)."""
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, color_system=None, width=200))
    for event in trace.events:
        narrator(event)
    return buffer.getvalue()


def tool_end_of(trace: Trace, call_id: str):
    return next(e for e in trace.events if e.kind == "tool_end" and e.tool_call_id == call_id)


def test_record_keeps_both_model_calls_the_parallel_tool_calls_and_the_answer(capsys, project):
    trace = record(capsys, project)
    assert len(project[1].received) == 2  # both model calls went over HTTP to the server
    assert trace.header.source == "openai-agents" and trace.header.framework == "OpenAI Agents SDK"
    assert "no span was sent to OpenAI" in trace.header.vendor_tracing
    starts = [e for e in trace.events if e.kind == "llm_start"]
    assert len(starts) == 2 and starts[0].messages[-1] == {"role": "user", "content": QUESTION}
    assert [t["function"]["name"] for t in starts[0].tools] == ["get_weather"]
    first_reply = next(e for e in trace.events if e.kind == "llm_end")
    assert [c.id for c in first_reply.tool_calls] == ["call_b", "call_s"]
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == {
        "call_b": "Beijing: sunny, 18°C",
        "call_s": "Shanghai: light rain, 16°C",
    }
    assert tool_end_of(trace, "call_b").callee.function == "get_weather"  # the user's function, for Source
    assert [m.get("tool_call_id") for m in starts[1].messages if m["role"] == "tool"] == ["call_b", "call_s"]
    assert trace.events[-1].kind == "chain_end" and trace.events[-1].outputs["output"] == ANSWER
    assert "sk-my-app-key-000" not in (project[0] / "run.jsonl").read_text(encoding="utf-8")


def test_verify_re_runs_the_real_agent_offline_with_no_socket_opened(capsys, project, monkeypatch):
    record(capsys, project)
    opened: list[object] = []

    def no_network(self, address):
        opened.append(address)
        raise OSError("verify must not reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err
    assert out.startswith("OK") and not opened


def test_verify_names_the_event_and_both_values_after_the_tool_changes(capsys, project):
    folder, _ = project
    record(capsys, project)
    source = folder / "my_app.py"
    source.write_text(source.read_text(encoding="utf-8").replace("{city}: {forecast}", "{forecast}"), encoding="utf-8")
    code, out, _ = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 1
    assert "tool_end): observation differs" in out
    assert "'Beijing: sunny, 18°C'" in out and "'sunny, 18°C'" in out


def test_a_fork_with_an_edited_observation_reaches_the_next_model_call_of_the_real_agent(capsys, project):
    folder, _ = project
    trace = record(capsys, project)
    at = tool_end_of(trace, "call_b").seq
    argv = ["fork", "run.jsonl", "--at", str(at), "--observation", "Beijing: hail, 2°C", "-o", "fork.jsonl"]
    code, out, err = loopscope(capsys, *argv, "--agent", "my_app.py:agent")
    assert code == 0, err
    fork = Trace.load(folder / "fork.jsonl")
    assert fork.header.fork_at == at and fork.header.framework == "OpenAI Agents SDK"
    assert tool_end_of(fork, "call_b").observation == "Beijing: hail, 2°C"
    assert tool_end_of(fork, "call_s").observation == "Shanghai: light rain, 16°C"  # the other call ran for real
    second = [e for e in fork.events if e.kind == "llm_start"][1]
    tool_messages = {m["tool_call_id"]: m["content"] for m in second.messages if m["role"] == "tool"}
    assert tool_messages == {"call_b": "Beijing: hail, 2°C", "call_s": "Shanghai: light rain, 16°C"}
    assert "model call #2" in out and "--model" not in out.splitlines()[-1]


def test_a_handoff_is_its_own_event_and_replays_offline(capsys, tmp_path, monkeypatch):
    handoff = ToolCalls((("call_h", "transfer_to_weather", "{}"),))
    server = project_with(tmp_path, monkeypatch, [handoff, PARALLEL_CALLS, ANSWER])
    try:
        trace = record(capsys, (tmp_path, server), spec="my_app.py:triage")
    finally:
        server.stop()
    handoffs = [e for e in trace.events if e.kind == "handoff"]
    assert [(e.from_agent, e.to_agent) for e in handoffs] == [("triage", "weather")]
    assert [e.kind for e in trace.events].count("llm_start") == 3
    assert trace.events[-1].outputs["agent"] == "weather"
    assert "handoff: triage -> weather" in narrated(trace)
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:triage")
    assert code == 0, out + err


def test_a_tripped_input_guardrail_is_its_own_event_before_the_run_ends(capsys, project):
    folder, server = project
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "What is my password?", "-o", "run.jsonl")
    assert code == 0 and "InputGuardrailTripwireTriggered" in err
    trace = Trace.load(folder / "run.jsonl")
    guardrail = next(e for e in trace.events if e.kind == "guardrail")
    assert (guardrail.guardrail, guardrail.stage, guardrail.tripped) == ("no_passwords", "input", True)
    assert guardrail.info == {"asked_for": "password"}
    assert "input guardrail no_passwords tripped its tripwire" in narrated(trace)
    assert trace.events[-1].kind == "chain_error" and not server.received  # stopped before any model call


def test_max_turns_is_a_limit_reached_event(capsys, tmp_path, monkeypatch):
    from tracer.bridges.openai_agents_agent import ADAPTER

    monkeypatch.setattr(ADAPTER, "max_turns", 1)  # one model call allowed; the agent wants a second
    server = project_with(tmp_path, monkeypatch, [PARALLEL_CALLS, ANSWER])
    try:
        code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", QUESTION, "-o", "run.jsonl")
    finally:
        server.stop()
    assert code == 0 and "MaxTurnsExceeded" in err
    trace = Trace.load(tmp_path / "run.jsonl")
    limit = next(e for e in trace.events if e.kind == "limit_reached")
    assert limit.reason == "max_iterations" and "max_turns=1" in limit.early_stopping_method
    assert [e.kind for e in trace.events][-2:] == ["limit_reached", "chain_error"]


def test_a_missing_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "tracer.bridges.openai_agents_agent", raising=False)
    monkeypatch.setitem(sys.modules, "agents", None)  # as if openai-agents were not installed
    with pytest.raises(ImportError) as raised:
        importlib.import_module("tracer.bridges.openai_agents_agent")
    assert "pip install 'loopscope[openai-agents]'" in str(raised.value)
    assert "\n" not in str(raised.value)
