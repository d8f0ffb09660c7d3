"""A LangGraph agent with ModelFallbackMiddleware: recorded while its first model is down, then re-run offline
with every model it holds (the fallbacks too) answered from the recording, the first failing as it failed."""

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

    from langchain.agents import create_agent
    from langchain.agents.middleware import ModelFallbackMiddleware
    from langchain_openai import ChatOpenAI


    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        return f"{city}: sunny, 18°C"


    primary = ChatOpenAI(model="primary-model", base_url=os.environ["DOWN_URL"], api_key="sk-a", max_retries=0)
    backup = ChatOpenAI(model="backup-model", base_url=os.environ["BACKUP_URL"], api_key="sk-b", max_retries=0)
    agent = create_agent(primary, tools=[get_weather], middleware=[ModelFallbackMiddleware(backup)])
    """
)
ANSWER = "Sunny in Beijing."


@pytest.fixture
def recorded(tmp_path, monkeypatch, capsys):
    down = FakeOpenAIServer(always=[Status(500, "the primary is down")], model_names=["primary-model"]).start()
    backup = FakeOpenAIServer(
        [ToolCalls((("call_b", "get_weather", json.dumps({"city": "Beijing"})),)), ANSWER],
        model_names=["backup-model"],
    ).start()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DOWN_URL", down.base_url)
    monkeypatch.setenv("BACKUP_URL", backup.base_url)
    (tmp_path / "my_app.py").write_text(AGENT, encoding="utf-8")
    code, out, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Weather in Beijing?", "-o", "run.jsonl")
    assert code == 0, out + err
    assert len(down.received) == 2 and len(backup.received) == 2  # each round: the primary failed, the backup answered
    yield tmp_path
    down.stop()
    backup.stop()


def test_the_recording_keeps_each_fallback(recorded):
    events = Trace.load(recorded / "run.jsonl").events
    fallbacks = [e for e in events if e.kind == "fallback"]
    assert [(e.failed_model, e.next_model) for e in fallbacks] == [("primary-model", "backup-model")] * 2
    assert all("the primary is down" in e.error for e in fallbacks)


def test_verify_answers_the_fallback_model_too_and_opens_no_socket(recorded, capsys, monkeypatch):
    check_verify_is_offline(capsys, monkeypatch)
