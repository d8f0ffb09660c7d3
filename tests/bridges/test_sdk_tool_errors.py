"""An OpenAI Agents SDK @function_tool that raises, recorded through the real SDK against a local chat-completions
server: a tool_error with the exception's type and message (and, under the SDK's default failure policy or a
failure_error_function of the user's, the text the model got as its observation), not a tool_end of that text;
re-run offline by verify."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import narrated, start_project, tool_messages, tool_result_of
from tracer import Trace
from tracer.report.narration.ledger import Ledger

AGENT = textwrap.dedent(
    """
    import os

    from agents import Agent, OpenAIChatCompletionsModel, function_tool
    from openai import AsyncOpenAI

    FORECASTS = {"Beijing": "sunny, 18°C"}


    def apologise(context, error):
        return "The weather service has no forecast for that city."


    async def apologise_later(context, error):
        return apologise(context, error)


    @function_tool{policy}
    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    agent = Agent(name="weather", tools=[get_weather], model=model)
    """
)
CALLS = ToolCalls(
    (
        ("call_b", "get_weather", json.dumps({"city": "Beijing"})),
        ("call_p", "get_weather", json.dumps({"city": "Paris"})),  # not in FORECASTS: KeyError
    )
)


@pytest.fixture
def project(tmp_path, monkeypatch, request):
    policy = getattr(request, "param", "")
    project = start_project(
        tmp_path, monkeypatch, AGENT.replace("{policy}", policy), "OpenAI Agents SDK", [CALLS, "Only Beijing is known."]
    )
    yield project
    project.server.stop()


def test_a_raising_tool_is_a_tool_error_with_the_exception_and_the_text_the_model_got(capsys, project):
    trace = project.record(capsys)
    error = tool_result_of(trace, "call_p", "tool_error")
    assert (error.tool, error.error_type, error.message, error.handled) == ("get_weather", "KeyError", "'Paris'", True)
    assert not [e for e in trace.events if e.kind == "tool_end" and e.tool_call_id == "call_p"]
    sent = tool_messages(project.server.received[1].messages)  # what the model was told on its next call
    assert error.observation == sent["call_p"] and "'Paris'" not in sent["call_p"]  # the SDK's own words
    assert error.callee is not None and error.callee.function == "get_weather"
    assert tool_result_of(trace, "call_b").observation == "Beijing: sunny, 18°C"  # the other call is a tool_end
    assert trace.events[-1].kind == "chain_end"
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


@pytest.mark.parametrize("project", ["(failure_error_function=None)"], indirect=True)
def test_a_tool_whose_error_propagates_is_an_unhandled_tool_error_before_the_run_ends(capsys, project):
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Weather?", "-o", "run.jsonl")
    assert code == 0 and "UserError" in err
    trace = Trace.load(project.folder / "run.jsonl")
    error = tool_result_of(trace, "call_p", "tool_error")
    assert (error.error_type, error.message, error.handled, error.observation) == ("KeyError", "'Paris'", False, None)
    assert trace.events[-1].kind == "chain_error" and len(project.server.received) == 1


@pytest.mark.parametrize(
    "project", ["(failure_error_function=apologise)", "(failure_error_function=apologise_later)"], indirect=True
)
def test_a_custom_failure_function_still_gives_a_tool_error_with_the_exception_and_its_text(capsys, project):
    # The user's function only says what the model is told; the exception is learnt around it, not from it.
    trace = project.record(capsys)
    error = tool_result_of(trace, "call_p", "tool_error")
    assert (error.tool, error.error_type, error.message, error.handled) == ("get_weather", "KeyError", "'Paris'", True)
    assert not [e for e in trace.events if e.kind == "tool_end" and e.tool_call_id == "call_p"]
    told = "The weather service has no forecast for that city."
    assert error.observation == told == tool_messages(project.server.received[1].messages)["call_p"]
    assert tool_result_of(trace, "call_b").observation == "Beijing: sunny, 18°C"
    assert "Tool error in get_weather (handled, becomes the observation): KeyError: 'Paris'" in narrated(trace)
    assert any(row.startswith("tool errors") and row.endswith("1") for row in Ledger.of(trace.events).lines())
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0 and out.startswith("OK"), out + err
