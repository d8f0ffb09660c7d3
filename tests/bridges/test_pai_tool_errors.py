"""A pydantic-ai tool that raises, recorded through the real pydantic-ai against a local chat-completions server:
ModelRetry is a handled tool_error whose observation is the retry text the model got; any other exception is an
unhandled tool_error (type and message) before the run ends with it."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import start_project, tool_messages, tool_result_of
from tracer import Trace

AGENT = textwrap.dedent(
    """
    import os

    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    FORECASTS = {"Beijing": "sunny, 18°C"}
    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = Agent(OpenAIChatModel("fake-model", provider=provider))


    @agent.tool_plain
    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        if city == "Atlantis":
            raise ModelRetry("Atlantis is not a city; ask about a real one.")
        forecast = FORECASTS[city]
        return f"{city}: {forecast}"
    """
)


def calls(second_city: str) -> ToolCalls:
    return ToolCalls(
        (
            ("call_b", "get_weather", json.dumps({"city": "Beijing"})),
            ("call_x", "get_weather", json.dumps({"city": second_city})),
        )
    )


@pytest.fixture
def start(tmp_path, monkeypatch):
    started = []

    def start(replies):
        started.append(start_project(tmp_path, monkeypatch, AGENT, "pydantic-ai", replies))
        return started[-1]

    yield start
    for project in started:
        project.server.stop()


def test_model_retry_is_a_handled_tool_error_whose_observation_is_the_retry_text_the_model_got(capsys, start):
    project = start([calls("Atlantis"), "Only Beijing is known."])
    trace = project.record(capsys)
    error = tool_result_of(trace, "call_x", "tool_error")
    assert (error.error_type, error.message, error.handled) == (
        "ModelRetry",
        "Atlantis is not a city; ask about a real one.",
        True,
    )
    assert error.observation == tool_messages(project.server.received[1].messages)["call_x"]
    assert error.callee is not None and error.callee.function == "get_weather"
    assert tool_result_of(trace, "call_b").observation == "Beijing: sunny, 18°C"
    assert trace.events[-1].kind == "chain_end"
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


def test_a_plain_exception_is_an_unhandled_tool_error_and_the_run_ends_with_it(capsys, start):
    project = start([calls("Paris"), "never asked"])
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Weather?", "-o", "run.jsonl")
    assert code == 0 and "KeyError" in err
    trace = Trace.load(project.folder / "run.jsonl")
    error = tool_result_of(trace, "call_x", "tool_error")
    assert (error.error_type, error.message, error.handled, error.observation) == ("KeyError", "'Paris'", False, None)
    kinds = [e.kind for e in trace.events]
    assert kinds.index("tool_error") < kinds.index("chain_error") == len(kinds) - 1
    assert len(project.server.received) == 1  # the model was not asked again


def test_retries_exhausted_say_the_tools_last_model_retry_and_a_trace_from_before_still_verifies(capsys, start):
    again = ToolCalls((("call_y", "get_weather", json.dumps({"city": "Atlantis"})),))
    project = start([calls("Atlantis"), again, "never asked"])
    code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Weather?", "-o", "run.jsonl")
    assert code == 0 and "exceeded max retries count of 1" in err
    trace = Trace.load(project.folder / "run.jsonl")
    error = tool_result_of(trace, "call_y", "tool_error")
    assert error.error_type == "UnexpectedModelBehavior" and not error.handled
    assert error.message.startswith("Tool 'get_weather' exceeded max retries count of 1.")
    assert error.message.endswith(" (the tool's last ModelRetry: Atlantis is not a city; ask about a real one.)")
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err
    # Recorded before the tool_error named the last ModelRetry: pydantic-ai's sentence alone, still OK.
    path = project.folder / "run.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    older = [json.dumps(_without_last_retry(json.loads(line))) for line in lines]
    assert older != lines
    path.write_text("\n".join(older) + "\n", encoding="utf-8")
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


def _without_last_retry(event: dict) -> dict:
    if event.get("kind") == "tool_error" and "(the tool's last ModelRetry:" in str(event.get("message")):
        return event | {"message": event["message"].split(" (the tool's last ModelRetry:")[0]}
    return event
