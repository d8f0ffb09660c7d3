"""A LangGraph agent in the user's own pytest: recorded once against its real model, then replayed offline as a
cassette through the real graph and tools, and failing with the short report after its tool changes."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls

pytest_plugins = ["pytester"]

USER_TEST = textwrap.dedent(
    """
    import os

    from langchain.agents import create_agent
    from langchain_openai import ChatOpenAI


    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        return {"Beijing": "Beijing: sunny", "Shanghai": "Shanghai: rain"}[city]


    def build():
        model = ChatOpenAI(model="fake-model", base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-test-0000")
        return create_agent(model, tools=[get_weather])


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


@pytest.mark.slow
def test_a_langgraph_cassette_records_once_replays_offline_and_fails_on_a_changed_tool(pytester, server):
    pytester.makepyfile(test_agent=USER_TEST)
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--loopscope-record=once")
    first.assert_outcomes(passed=1)
    assert len(server.received) == 2
    cassette = pytester.path / "cassettes" / "test_agent" / "test_weather.jsonl"
    assert cassette.is_file()

    again = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    again.assert_outcomes(passed=1)
    assert len(server.received) == 2  # the replay asked the server nothing

    pytester.makepyfile(test_agent=USER_TEST.replace('"Beijing: sunny"', '"Beijing: snow"'))
    changed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    changed.assert_outcomes(failed=1)
    out = changed.stdout.str()
    assert "no longer matches its cassette" in out and "observation differs" in out
    assert "'Beijing: sunny'" in out and "'Beijing: snow'" in out
