"""A pydantic-ai Agent named MODULE:ATTR: recorded by `loopscope record` against a real OpenAIChatModel over HTTP (an
OpenAIProvider at the local server's base_url), re-run offline by `verify --agent` and forked through the real agent
and tools; its output validator's ModelRetry recorded as an output_retry event."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.framework_e2e import (
    ANSWER,
    PARALLEL_CALLS,
    check_debug_shows_replayed_locals,
    check_fork_reaches_the_next_model_call,
    check_parallel_run_recorded,
    check_variables_show_the_messages,
    check_verify_is_offline,
    check_verify_names_the_changed_tool,
    forked_at,
    narrated,
    recorded_at_one_turn,
    start_project,
    tool_result_of,
)

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
FRAMEWORK = "pydantic-ai"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A user's project: my_app.py beside its trace, its model an OpenAIChatModel aimed at a local server."""
    project = start_project(tmp_path, monkeypatch, AGENT, FRAMEWORK, [PARALLEL_CALLS, ANSWER])
    yield project
    project.server.stop()


def test_record_keeps_both_model_calls_the_parallel_tool_calls_and_the_answer(capsys, project):
    trace = project.record(capsys)
    check_parallel_run_recorded(project, trace, "pydantic-ai")
    check_variables_show_the_messages(project, trace)
    assert [e.kind for e in trace.events].count("output_retry") == 0


def test_verify_re_runs_the_real_agent_offline_with_no_socket_opened(capsys, project, monkeypatch):
    project.record(capsys)
    check_verify_is_offline(capsys, monkeypatch)


def test_verify_names_the_event_and_both_values_after_the_tool_changes(capsys, project):
    project.record(capsys)
    check_verify_names_the_changed_tool(capsys, project)


def test_a_fork_with_an_edited_observation_reaches_the_next_model_call_of_the_real_agent(capsys, project):
    check_fork_reaches_the_next_model_call(capsys, project, project.record(capsys))


def test_debug_with_the_agent_shows_the_real_locals_of_a_re_run(capsys, project):
    project.record(capsys, question="Weather?")
    check_debug_shows_replayed_locals(project.folder, "Weather?")


def test_an_output_validators_model_retry_is_its_own_event_and_the_model_is_asked_again(capsys, tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT, FRAMEWORK, [PARALLEL_CALLS, "Sunny in Beijing.", ANSWER])
    try:
        trace = project.record(capsys)
    finally:
        project.server.stop()
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


def test_a_request_limit_as_the_app_gives_it_is_a_limit_reached_event_and_re_runs_keep_it(
    capsys, tmp_path, monkeypatch
):
    trace = recorded_at_one_turn(capsys, tmp_path, monkeypatch, AGENT, FRAMEWORK, "UsageLimitExceeded")
    assert trace.events[0].settings["request_limit"] == 1 and "max_turns" not in trace.events[0].settings
    assert "(request_limit=1)" in trace.events[-2].early_stopping_method
    # The re-run stops where the recording did: with pydantic-ai's 50 it asked for a second reply and DIVERGED.
    check_verify_is_offline(capsys, monkeypatch)
    fork = forked_at(capsys, tmp_path, tool_result_of(trace, "call_b").seq, "Beijing: hail, 2°C")
    assert [e.kind for e in fork.events][-2:] == ["limit_reached", "chain_error"]
    assert tool_result_of(fork, "call_b").observation == "Beijing: hail, 2°C"


def test_without_a_limit_the_trace_keeps_none_and_a_loopscope_agent_refuses_one(capsys, project):
    trace = project.record(capsys)
    assert "request_limit" not in trace.events[0].settings  # pydantic-ai's default: read as before
    code, _, err = loopscope(capsys, "record", "rose-pricing", "--max-turns", "3", "-o", "never.jsonl")
    assert code == 2 and "UsageLimits(request_limit=N)" in err.strip().splitlines()[-1]
