"""An OpenAI Agents SDK agent and a pydantic-ai agent in the user's own pytest: each recorded once against its real
model over HTTP, then replayed offline as a cassette through the real agent and tools, and failing with the short
report after its tool changes."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls

pytest_plugins = ["pytester"]

TOOL = """
def get_weather(city: str) -> str:
    \"\"\"Today's weather for one city.\"\"\"
    return {"Beijing": "Beijing: sunny", "Shanghai": "Shanghai: rain"}[city]
"""
AGENTS_SDK = (
    """
import os

from agents import Agent, OpenAIChatCompletionsModel, function_tool
from openai import AsyncOpenAI
"""
    + TOOL
    + """

def build():
    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-test-0000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    return Agent(name="weather", tools=[function_tool(get_weather)], model=model)
"""
)
PYDANTIC_AI = (
    """
import os

from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
"""
    + TOOL
    + """

def build():
    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-test-0000")
    return Agent(OpenAIChatModel("fake-model", provider=provider), tools=[get_weather])
"""
)
USER_TEST = textwrap.dedent(
    """

    def test_weather(loopscope_cassette):
        trace = loopscope_cassette.run_agent(build(), "Weather in Beijing and Shanghai?")
        assert trace.outcome().startswith("finished")
    """
)


@pytest.fixture
def server(monkeypatch):
    server = FakeOpenAIServer(
        [
            ToolCalls(
                (
                    ("c1", "get_weather", json.dumps({"city": "Beijing"})),
                    ("c2", "get_weather", json.dumps({"city": "Shanghai"})),
                )
            ),
            "Sunny in Beijing, rain in Shanghai.",
        ]
    ).start()
    monkeypatch.setenv("MY_APP_BASE_URL", server.base_url)
    yield server
    server.stop()


def recorded_replayed_then_changed(pytester, server, source: str, calls: int, change: tuple[str, str]):
    """The user's test file `source` recorded once (`calls` model calls over HTTP), replayed offline (none),
    then run again with `change` made to it: that last run's result."""
    pytester.makepyfile(test_agent=source)
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--loopscope-record=once")
    first.assert_outcomes(passed=1)
    assert len(server.received) == calls
    assert (pytester.path / "cassettes" / "test_agent" / "test_weather.jsonl").is_file()
    again = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    again.assert_outcomes(passed=1)
    assert len(server.received) == calls  # the replay asked the server nothing
    pytester.makepyfile(test_agent=source.replace(*change))
    return pytester.runpytest_subprocess("-p", "no:cacheprovider")


@pytest.mark.slow
@pytest.mark.parametrize("agent_module", [AGENTS_SDK, PYDANTIC_AI], ids=["openai-agents", "pydantic-ai"])
def test_a_framework_cassette_records_once_replays_offline_and_fails_on_a_changed_tool(pytester, server, agent_module):
    changed = recorded_replayed_then_changed(
        pytester, server, agent_module + USER_TEST, 2, ('"Beijing: sunny"', '"Beijing: snow"')
    )
    changed.assert_outcomes(failed=1)
    out = changed.stdout.str()
    assert "no longer matches its cassette" in out and "observation differs" in out
    assert "'Beijing: sunny'" in out and "'Beijing: snow'" in out


USER_TEST_AT_ITS_LIMIT = textwrap.dedent(
    """

    def test_weather(loopscope_cassette):
        trace = loopscope_cassette.run_agent(build(), "Weather in Beijing and Shanghai?", max_turns=1)
        assert trace.outcome().startswith("error: ")
        assert type(trace.error).__name__ in ("MaxTurnsExceeded", "UsageLimitExceeded")
        assert [e.kind for e in trace.events][-2:] == ["limit_reached", "chain_error"]
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("agent_module", [AGENTS_SDK, PYDANTIC_AI], ids=["openai-agents", "pydantic-ai"])
def test_an_agent_stopped_by_its_turn_limit_is_the_same_trace_recording_and_replaying(pytester, server, agent_module):
    # Recording used to raise what the agent raised while the replay returned a trace: a test could not pass both.
    # One model call went out: the limit stopped the second.
    changed = recorded_replayed_then_changed(
        pytester, server, agent_module + USER_TEST_AT_ITS_LIMIT, 1, ("max_turns=1", "max_turns=2")
    )
    changed.assert_outcomes(failed=1)
    out = changed.stdout.str()
    assert "no longer matches its cassette" in out and ("max_turns" in out or "request_limit" in out)
