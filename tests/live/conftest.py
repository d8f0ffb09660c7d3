"""Live-model test fixtures: a fake OpenAI-compatible server on 127.0.0.1, and the environment aimed at it."""

import pytest

from tests.helpers.fake_openai_server import FakeOpenAIServer

# Deliberately not "sk-..." shaped: the provider must hide the key itself, not rely on pattern redaction.
API_KEY = "test-key-7d41c0ffee-never-log-me"


@pytest.fixture
def fake_openai():
    server = FakeOpenAIServer(model_names=["fake-model", "fake-model-large"]).start()
    yield server
    server.stop()


@pytest.fixture
def live_env(fake_openai, monkeypatch, tmp_path):
    """OPENAI_API_KEY / OPENAI_BASE_URL aimed at the fake server, run from an empty directory (no .env)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.delenv("LOOPSCOPE_MODEL", raising=False)
    return fake_openai
