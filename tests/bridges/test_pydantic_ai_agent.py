"""A pydantic-ai Agent named MODULE:ATTR: recorded by `loopscope record` against a real OpenAIChatModel over HTTP (an
OpenAIProvider at the local server's base_url), re-run offline by `verify --agent` and forked through the real agent
and tools; its output validator's ModelRetry recorded as an output_retry event."""

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

    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    FORECASTS = {"Beijing": "sunny, 18°C", "Shanghai": "light rain, 16°C"}

    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = Agent(OpenAIChatModel("fake-model", provider=provider), instructions="Answer about weather.")


    @agent.tool_plain
    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"


    @agent.output_validator
    def names_both_cities(output: str) -> str:
        if "Shanghai" not in output:
            raise ModelRetry("Say something about Shanghai too.")
        return output
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
    assert "(pydantic-ai, with its own model)" in out
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
    assert trace.header.source == "pydantic-ai" and trace.header.framework == "pydantic-ai"
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
    assert [e.kind for e in trace.events].count("output_retry") == 0
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
    assert fork.header.fork_at == at and fork.header.framework == "pydantic-ai"
    assert tool_end_of(fork, "call_b").observation == "Beijing: hail, 2°C"
    assert tool_end_of(fork, "call_s").observation == "Shanghai: light rain, 16°C"  # the other call ran for real
    second = [e for e in fork.events if e.kind == "llm_start"][1]
    tool_messages = {m["tool_call_id"]: m["content"] for m in second.messages if m["role"] == "tool"}
    assert tool_messages == {"call_b": "Beijing: hail, 2°C", "call_s": "Shanghai: light rain, 16°C"}
    assert "model call #2" in out and "--model" not in out.splitlines()[-1]


def test_an_output_validators_model_retry_is_its_own_event_and_the_model_is_asked_again(capsys, tmp_path, monkeypatch):
    server = project_with(tmp_path, monkeypatch, [PARALLEL_CALLS, "Sunny in Beijing.", ANSWER])
    try:
        trace = record(capsys, (tmp_path, server))
    finally:
        server.stop()
    retry = next(e for e in trace.events if e.kind == "output_retry")
    assert retry.message == "Say something about Shanghai too." and retry.attempt == 1
    kinds = [e.kind for e in trace.events]
    assert kinds.count("llm_start") == 3 and kinds.index("output_retry") < len(kinds) - 3  # before the last call
    last = [e for e in trace.events if e.kind == "llm_start"][-1]
    assert "Say something about Shanghai too." in last.messages[-1]["content"]
    assert trace.events[-1].outputs["output"] == ANSWER
    assert "output rejected (retry 1), the model is told: Say something about Shanghai too." in narrated(trace)
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


def test_a_missing_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "tracer.bridges.pydantic_ai_agent", raising=False)
    monkeypatch.setitem(sys.modules, "pydantic_ai", None)  # as if pydantic-ai were not installed
    with pytest.raises(ImportError) as raised:
        importlib.import_module("tracer.bridges.pydantic_ai_agent")
    assert "pip install 'loopscope[pydantic-ai]'" in str(raised.value)
    assert "\n" not in str(raised.value)
