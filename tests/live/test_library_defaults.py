"""An agent built in Python gets the command line's defaults: .env configuration, retries, fast failure."""

import socket

import pytest

from executor import AgentExecutor, ManualClock, RetryPolicy, ScriptedModel, Tool, create_react_agent
from executor.models.providers import ProviderUnreachable, create_model
from tests.helpers.fake_openai_server import Drop, Status
from tests.live.conftest import API_KEY

REPLIES = [
    " I should look.\nAction: Search\nAction Input: roses",
    " I now know the final answer.\nFinal Answer: 25 yuan",
]


def build(model, **settings):
    tools = [Tool("Search", "Look up prices.", lambda q: "25 yuan a bunch")]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, **settings)


@pytest.fixture
def dotenv_only(fake_openai, monkeypatch, tmp_path):
    """Key and URL only in ./.env, nothing in the environment: what a user's project has."""
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LOOPSCOPE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(f"OPENAI_API_KEY={API_KEY}\nOPENAI_BASE_URL={fake_openai.base_url}\n")
    return fake_openai


def test_create_model_without_config_reads_dotenv(dotenv_only):
    dotenv_only.push(*REPLIES)
    result = build(create_model("openai:fake-model")).invoke({"input": "What do roses cost?"})
    assert result["output"] == "25 yuan"
    assert dotenv_only.received[0].headers["authorization"] == f"Bearer {API_KEY}"


@pytest.mark.parametrize("fault", [Status(429, "slow down"), Status(503), Drop()], ids=["429", "503", "dropped"])
def test_a_live_model_is_retried_by_default_like_the_cli(dotenv_only, fault):
    dotenv_only.push(fault, *REPLIES)
    clock = ManualClock()
    executor = build(create_model("openai:fake-model"), clock=clock)
    assert executor.retry_policy == RetryPolicy(max_retries=6, rng=executor.retry_policy.rng)
    events = []
    result = executor.invoke({"input": "q"}, [events.append])
    assert result["output"] == "25 yuan"
    assert [e.kind for e in events].count("retry") == 1 and len(clock.slept) == 1


def test_scripted_models_and_explicit_choices_get_no_default_retries(dotenv_only):
    assert build(ScriptedModel(REPLIES)).retry_policy is None
    assert build(create_model("openai:fake-model"), retry_policy=None).retry_policy is None
    mine = RetryPolicy(max_retries=1)
    assert build(create_model("openai:fake-model"), retry_policy=mine).retry_policy is mine
    with pytest.raises(TypeError, match="retry_policy must be a RetryPolicy or None, got int"):
        build(ScriptedModel(REPLIES), retry_policy=3)


def test_a_closed_port_fails_fast_under_the_default_policy_naming_the_url(dotenv_only, monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    events = []
    with pytest.raises(ProviderUnreachable) as raised:
        build(create_model("openai:fake-model")).invoke({"input": "q"}, [events.append])  # real clock
    assert f"http://127.0.0.1:{port}/v1" in str(raised.value) and "\n" not in str(raised.value)
    assert "retry" not in [e.kind for e in events]
