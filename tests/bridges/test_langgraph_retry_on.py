"""A LangGraph agent whose ModelRetryMiddleware retries one openai class only: recorded while the model answers
429 once, then re-run offline; the recorded failure must be raised as that very class, or the retry would not
match it and the re-run would end where the recording went on."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import FakeOpenAIServer, Status, ToolCalls
from tests.helpers.framework_e2e import check_verify_is_offline
from tracer import Trace

AGENT = textwrap.dedent(
    """
    import os

    import openai
    from langchain.agents import create_agent
    from langchain.agents.middleware import ModelRetryMiddleware
    from langchain_openai import ChatOpenAI


    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        return f"{city}: sunny, 18°C"


    model = ChatOpenAI(model="busy-model", base_url=os.environ["BUSY_URL"], api_key="sk-a", max_retries=0)
    retry = ModelRetryMiddleware(
        retry_on=(openai.RateLimitError,), max_retries=2, initial_delay=0.0, jitter=False, on_failure="error"
    )
    agent = create_agent(model, tools=[get_weather], middleware=[retry])
    """
)
ANSWER = "Sunny in Beijing."


@pytest.fixture
def recorded(tmp_path, monkeypatch, capsys):
    busy = FakeOpenAIServer(
        [
            Status(429, "slow down", retry_after="0"),
            ToolCalls((("call_w", "get_weather", json.dumps({"city": "Beijing"})),)),
            ANSWER,
        ],
        model_names=["busy-model"],
    ).start()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BUSY_URL", busy.base_url)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    code, out, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Weather in Beijing?", "-o", "run.jsonl")
    assert code == 0, out + err
    assert len(busy.received) == 3  # 429, then the retry's tool call, then the answer
    yield tmp_path
    busy.stop()


def test_the_recording_names_the_failure_by_its_module_and_class(recorded):
    retries = [e for e in Trace.load(recorded / "run.jsonl").events if e.kind == "retry"]
    assert [(e.target, e.error_class) for e in retries] == [
        ("llm", "langchain_openai.chat_models.base:OpenAIRateLimitError")
    ]
    assert retries[0].error.startswith("OpenAIRateLimitError: Error code: 429")


def test_verify_raises_the_recorded_class_so_the_retry_matches_it_offline(recorded, capsys, monkeypatch):
    check_verify_is_offline(capsys, monkeypatch)
