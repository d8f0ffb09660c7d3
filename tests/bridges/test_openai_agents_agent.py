"""An OpenAI Agents SDK Agent named MODULE:ATTR: recorded by `loopscope record` against a real AsyncOpenAI client over
HTTP (OpenAIChatCompletionsModel), re-run offline by `verify --agent` and forked through the real agent and tools;
its handoffs and guardrail tripwires recorded as their own events."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import (
    ANSWER,
    PARALLEL_CALLS,
    check_debug_shows_replayed_locals,
    check_fork_reaches_the_next_model_call,
    check_parallel_run_recorded,
    check_variables_show_the_messages,
    check_verify_is_offline,
    check_verify_names_the_changed_tool,
    narrated,
    recorded_at_one_turn,
    start_project,
)
from tracer import Trace

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
FRAMEWORK = "OpenAI Agents SDK"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A user's project: my_app.py beside its trace, its model a real AsyncOpenAI client aimed at a local server."""
    project = start_project(tmp_path, monkeypatch, AGENT, FRAMEWORK, [PARALLEL_CALLS, ANSWER])
    yield project
    project.server.stop()


def test_record_keeps_both_model_calls_the_parallel_tool_calls_and_the_answer(capsys, project):
    trace = project.record(capsys)
    check_parallel_run_recorded(project, trace, "openai-agents")
    check_variables_show_the_messages(project, trace)
    assert "no span was sent to OpenAI" in trace.header.vendor_tracing


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


def test_a_handoff_is_its_own_event_and_replays_offline(capsys, tmp_path, monkeypatch):
    handoff = ToolCalls((("call_h", "transfer_to_weather", "{}"),))
    project = start_project(tmp_path, monkeypatch, AGENT, FRAMEWORK, [handoff, PARALLEL_CALLS, ANSWER])
    try:
        trace = project.record(capsys, spec="my_app.py:triage")
    finally:
        project.server.stop()
    handoffs = [e for e in trace.events if e.kind == "handoff"]
    assert [(e.from_agent, e.to_agent) for e in handoffs] == [("triage", "weather")]
    assert [e.kind for e in trace.events].count("llm_start") == 3
    assert trace.events[-1].outputs["agent"] == "weather"
    assert "handoff: triage -> weather" in narrated(trace)
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:triage")
    assert code == 0, out + err


def test_a_tripped_input_guardrail_is_its_own_event_before_the_run_ends(capsys, project):
    folder, server = project.folder, project.server
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "What is my password?", "-o", "run.jsonl")
    assert code == 0 and "InputGuardrailTripwireTriggered" in err
    trace = Trace.load(folder / "run.jsonl")
    guardrail = next(e for e in trace.events if e.kind == "guardrail")
    assert (guardrail.guardrail, guardrail.stage, guardrail.tripped) == ("no_passwords", "input", True)
    assert guardrail.info == {"asked_for": "password"}
    assert "input guardrail no_passwords tripped its tripwire" in narrated(trace)
    assert trace.events[-1].kind == "chain_error" and not server.received  # stopped before any model call


def test_max_turns_as_the_app_gives_it_is_a_limit_reached_event_and_verify_re_runs_with_it(
    capsys, tmp_path, monkeypatch
):
    trace = recorded_at_one_turn(capsys, tmp_path, monkeypatch, AGENT, FRAMEWORK, "MaxTurnsExceeded")
    assert trace.events[0].settings["max_turns"] == 1
    assert "(max_turns=1)" in trace.events[-2].early_stopping_method
    # The re-run stops where the recording did: with the SDK's 10 it went on to a second model call and DIVERGED.
    check_verify_is_offline(capsys, monkeypatch)


def test_max_turns_for_an_agent_that_has_none_is_one_line(capsys):
    code, _, err = loopscope(capsys, "record", "rose-pricing", "--max-turns", "3", "-o", "never.jsonl")
    assert code == 2 and "Runner.run(max_turns=N)" in err.strip().splitlines()[-1]
    code, _, err = loopscope(capsys, "debug", "fixtures/rose_pricing.jsonl", "--max-turns", "3")
    assert code == 2 and "--max-turns only applies to --live runs" in err
    with pytest.raises(SystemExit) as refused:  # argparse's own refusal
        loopscope(capsys, "record", "rose-pricing", "--max-turns", "0")
    assert refused.value.code == 2 and "'0' is not a whole number of turns" in capsys.readouterr().err


def test_a_missing_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "tracer.bridges.openai_agents_agent", raising=False)
    monkeypatch.setitem(sys.modules, "agents", None)  # as if openai-agents were not installed
    with pytest.raises(ImportError) as raised:
        importlib.import_module("tracer.bridges.openai_agents_agent")
    assert "pip install 'loopscope[openai-agents]'" in str(raised.value)
    assert "\n" not in str(raised.value)
