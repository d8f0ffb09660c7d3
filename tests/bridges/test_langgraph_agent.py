"""A LangGraph agent named MODULE:ATTR: recorded by `loopscope record` against a real ChatOpenAI over HTTP, then
re-run offline by `loopscope verify --agent` through the real graph and tools, with no socket opened."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.framework_e2e import (
    ANSWER,
    KEY,
    OBSERVATIONS,
    PARALLEL_CALLS,
    check_fork_reaches_the_next_model_call,
    check_verify_is_offline,
    check_verify_names_the_changed_tool,
    recorded_at_one_turn,
    start_project,
    tool_messages,
    tool_result_of,
)
from tracer import Trace

AGENT = textwrap.dedent(
    """
    import os

    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langchain.agents.middleware import ToolRetryMiddleware
    from langchain_openai import ChatOpenAI

    FORECASTS = {"Beijing": "sunny, 18°C", "Shanghai": "light rain, 16°C"}


    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"


    model = ChatOpenAI(model="fake-model", base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = create_agent(model, tools=[get_weather], middleware=[ToolRetryMiddleware(max_retries=1)])
    """
)
FRAMEWORK = "LangGraph"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A user's project: my_app.py beside its trace, its model a real ChatOpenAI aimed at a local server."""
    project = start_project(tmp_path, monkeypatch, AGENT, FRAMEWORK, [PARALLEL_CALLS, ANSWER])
    yield project.folder, project
    project.server.stop()


def record(capsys, project) -> Trace:
    return project[1].record(capsys)


def test_record_runs_the_graph_with_its_own_model_and_keeps_both_calls_tools_and_answer(capsys, project):
    trace = record(capsys, project)
    assert len(project[1].server.received) == 2  # both model calls went over HTTP to the server
    assert trace.header.agent == "my_app.py:agent" and trace.header.agent_hash
    kinds = [e.kind for e in trace.events]
    assert kinds.count("llm_start") == 2 and kinds.count("tool_end") == 2
    first_reply = next(e for e in trace.events if e.kind == "llm_end")
    assert [c.id for c in first_reply.tool_calls] == ["call_b", "call_s"]
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == OBSERVATIONS
    second_prompt = [e for e in trace.events if e.kind == "llm_start"][1]
    assert list(tool_messages(second_prompt.messages)) == ["call_b", "call_s"]
    assert trace.events[-1].kind == "chain_end"
    assert KEY not in (project[0] / "run.jsonl").read_text(encoding="utf-8")


def test_verify_re_runs_the_real_graph_offline_with_no_socket_opened(capsys, project, monkeypatch):
    record(capsys, project)
    check_verify_is_offline(capsys, monkeypatch)


def test_verify_names_the_event_and_both_values_after_the_tool_changes(capsys, project):
    record(capsys, project)
    check_verify_names_the_changed_tool(capsys, project[1])


def test_a_langgraph_trace_without_an_agent_says_how_to_name_one(capsys, project):
    folder, _ = project
    record(capsys, project)
    header, *events = (folder / "run.jsonl").read_text(encoding="utf-8").splitlines()
    fields = json.loads(header)
    fields.pop("agent"), fields.pop("agent_hash")
    (folder / "bare.jsonl").write_text("\n".join([json.dumps(fields), *events]) + "\n", encoding="utf-8")
    code, out, err = loopscope(capsys, "verify", "bare.jsonl")
    assert code == 2
    assert "--agent MODULE:ATTR" in out + err


def test_an_untrusted_agent_named_by_the_trace_is_not_imported(capsys, project):
    folder, _ = project
    record(capsys, project)
    marker = folder / "ran.txt"
    (folder / "other.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nagent = None\n", encoding="utf-8")
    text = (folder / "run.jsonl").read_text(encoding="utf-8").replace('"my_app.py:agent"', '"other.py:agent"', 1)
    (folder / "named.jsonl").write_text(text, encoding="utf-8")
    code, out, err = loopscope(capsys, "verify", "named.jsonl")
    assert code == 2 and not marker.exists()
    assert "not trusted" in out + err or "have not trusted" in out + err


def tool_end_of(trace: Trace, call_id: str):
    return tool_result_of(trace, call_id)


def test_a_fork_with_an_edited_observation_reaches_the_next_model_call_of_the_real_graph(capsys, project):
    out_fork = check_fork_reaches_the_next_model_call(capsys, project[1], record(capsys, project))
    assert out_fork.header.parent.endswith("run.jsonl")


def test_stop_at_change_ends_the_fork_at_the_changed_prompt(capsys, project):
    folder, _ = project
    trace = record(capsys, project)
    at = tool_end_of(trace, "call_s").seq
    code, out, _ = loopscope(
        capsys,
        "fork",
        "run.jsonl",
        "--at",
        str(at),
        "--observation",
        "snow",
        "--stop-at-change",
        "-o",
        "stopped.jsonl",
        "--agent",
        "my_app.py:agent",
    )
    assert code == 0
    fork = Trace.load(folder / "stopped.jsonl")
    assert [e.kind for e in fork.events].count("llm_end") == 1  # the second call was never answered
    assert "the fork stops at model call #2" in out


def test_a_reply_fork_gives_the_graph_the_new_reply(capsys, project):
    folder, _ = project
    trace = record(capsys, project)
    at = [e for e in trace.events if e.kind == "llm_end"][1].seq
    code, _, err = loopscope(
        capsys,
        "fork",
        "run.jsonl",
        "--at",
        str(at),
        "--reply",
        "No idea.",
        "-o",
        "reply.jsonl",
        "--agent",
        "my_app.py:agent",
    )
    assert code == 0, err
    assert Trace.load(folder / "reply.jsonl").events[-1].outputs["messages"][-1]["content"] == "No idea."


def test_a_module_that_builds_its_client_at_import_needs_no_key_offline(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "keyless.py").write_text(
        AGENT.replace(', base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000"', ""), encoding="utf-8"
    )
    replies = [
        {"tool_calls": [{"id": "k1", "name": "get_weather", "arguments": {"city": "Beijing"}}]},
        "Sunny in Beijing.",
    ]
    (tmp_path / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    code, out, err = loopscope(
        capsys, "record", "keyless.py:agent", "--input", "Beijing?", "--replies", "replies.json", "-o", "k.jsonl"
    )
    assert code == 0, err
    code, out, err = loopscope(capsys, "verify", "k.jsonl", "--agent", "keyless.py:agent")
    assert code == 0, out + err
    assert "OPENAI_API_KEY" not in os.environ  # the placeholder was for the import only


def test_a_recursion_limit_as_the_app_gives_it_is_a_limit_reached_event_and_verify_re_runs_with_it(
    capsys, tmp_path, monkeypatch
):
    trace = recorded_at_one_turn(capsys, tmp_path, monkeypatch, AGENT, FRAMEWORK, "GraphRecursionError")
    assert trace.events[0].settings["recursion_limit"] == 1
    assert "(recursion_limit=1)" in trace.events[-2].early_stopping_method
    assert not [e for e in trace.events if e.kind == "tool_start"]  # the tools node was the step too many
    # The re-run stops where the recording did: with LangGraph's default it ran the tools and DIVERGED.
    check_verify_is_offline(capsys, monkeypatch)


def test_the_apps_own_recursion_limit_is_kept_by_the_handler_and_the_default_is_not(tmp_path):
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage

    from tracer import LoopscopeCallbackHandler
    from tutorials.langchain_chat import ScriptedChatModel, tool_call_reply

    def get_weather(city: str) -> str:
        """Today's weather for one city."""
        return "sunny"

    asked = {"messages": [{"role": "user", "content": "Weather?"}]}
    for name, config in (("given", {"recursion_limit": 7}), ("default", {})):
        model = ScriptedChatModel(
            replies=[tool_call_reply(("c1", "get_weather", {"city": "Beijing"})), AIMessage("Sunny.")]
        )
        graph = create_agent(model, tools=[get_weather])
        with LoopscopeCallbackHandler(tmp_path / f"{name}.jsonl") as handler:
            graph.invoke(asked, config | {"callbacks": [handler]})
        settings = Trace.load(tmp_path / f"{name}.jsonl").events[0].settings
        assert settings.get("recursion_limit") == (7 if name == "given" else None), name
