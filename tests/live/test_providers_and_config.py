"""Configuration precedence (flags > environment > .env), the provider registry and its entry points."""

import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest

import executor.models.providers as providers
from executor.models.config import ModelConfigError, display_url, load_model_config
from executor.models.providers import (
    ProviderNotFound,
    available_providers,
    create_model,
    parse_model_spec,
    register_provider,
    unregister_provider,
)
from tests.live.conftest import API_KEY


@pytest.fixture
def dotenv(tmp_path):
    path = tmp_path / ".env"
    path.write_text(
        "OPENAI_API_KEY=from-dotenv-key-123\nOPENAI_BASE_URL=http://dotenv.local/v1\n"
        "LOOPSCOPE_MODEL=openai:dotenv-model\n",
        encoding="utf-8",
    )
    return path


def test_flags_beat_the_environment_which_beats_dotenv(dotenv):
    environ = {"OPENAI_BASE_URL": "http://env.local/v1", "LOOPSCOPE_MODEL": "openai:env-model"}
    config = load_model_config(model="openai:flag-model", environ=environ, dotenv_path=dotenv)
    assert config.model == "openai:flag-model" and config.origins["model"] == "--model flag"
    assert config.base_url == "http://env.local/v1" and config.origins["base_url"] == "environment"
    assert config.api_key.get_secret_value() == "from-dotenv-key-123"
    assert config.origins["api_key"] == f".env ({dotenv})"


def test_dotenv_values_are_not_copied_into_the_process_environment(dotenv, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    load_model_config(environ={}, dotenv_path=dotenv)
    import os

    assert "OPENAI_API_KEY" not in os.environ


def test_the_key_never_shows_in_repr_or_str_of_the_config():
    config = load_model_config(api_key=API_KEY, environ={}, dotenv_path="/nonexistent/.env")
    assert API_KEY not in repr(config) and API_KEY not in str(config)
    assert config.require_api_key() == API_KEY


def test_a_missing_key_names_the_variable_to_set():
    config = load_model_config(environ={}, dotenv_path="/nonexistent/.env")
    with pytest.raises(ModelConfigError, match="^OPENAI_API_KEY is not set: export OPENAI_API_KEY"):
        config.require_api_key()


@pytest.mark.parametrize("url", ["localhost:8000", "ftp://x/v1", "http://"])
def test_a_base_url_that_is_not_http_is_refused(url):
    with pytest.raises(ModelConfigError, match="OPENAI_BASE_URL .* is not an http"):
        load_model_config(environ={"OPENAI_BASE_URL": url}, dotenv_path="/nonexistent/.env")


def test_printed_urls_lose_their_credentials():
    assert display_url("https://user:pw@gateway.example/v1") == "https://gateway.example/v1"
    assert display_url("http://localhost:8000/v1") == "http://localhost:8000/v1"


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("openai:llama3:8b", ("openai", "llama3:8b")),
        ("gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("scripted", ("scripted", "")),
        ("replay:fixtures/a.jsonl", ("replay", "fixtures/a.jsonl")),
    ],
)
def test_model_specs(spec, expected):
    assert parse_model_spec(spec) == expected


def test_unknown_providers_are_named_with_the_available_ones():
    with pytest.raises(ProviderNotFound) as caught:
        create_model("nope:x")
    assert str(caught.value) == "Provider 'nope' not found; available: openai, replay, scripted"


def test_the_replay_provider_comes_from_the_installed_entry_point():
    assert "entry point from loopscope" in available_providers()["replay"]


def test_a_registered_provider_wins_and_can_be_removed():
    register_provider("openai", lambda request: f"stand-in for {request.name}", "test double")
    try:
        assert create_model("openai:x") == "stand-in for x"
        assert available_providers()["openai"] == "test double"
    finally:
        unregister_provider("openai")
    assert "built in" in available_providers()["openai"]
    with pytest.raises(ValueError, match="without ':'"):
        register_provider("a:b", lambda request: None)


def plugin_entry_points(*points):
    return lambda group: [EntryPoint(name, value, group) for name, value in points]


def test_a_third_party_entry_point_is_found_loaded_and_listed(monkeypatch):
    monkeypatch.setattr(
        providers,
        "entry_points",
        plugin_entry_points(
            ("mycloud", "tests.helpers.fake_provider_plugin:create"),
            ("openai", "tests.helpers.fake_provider_plugin:broken"),
        ),
    )
    model = create_model("mycloud:big")
    assert model.model_name == "echo-big"
    assert "tests.helpers.fake_provider_plugin:create" in available_providers()["mycloud"]
    assert type(create_model("openai:x", load_model_config(api_key="k", environ={}))).__name__ == "OpenAIChatModel"


def test_a_broken_plugin_is_a_one_line_config_error(monkeypatch):
    monkeypatch.setattr(providers, "entry_points", plugin_entry_points(("bad", "no_such_module_xyz:create")))
    with pytest.raises(ModelConfigError, match="Provider 'bad' .* failed to load: ModuleNotFoundError"):
        create_model("bad:x")


def test_scripted_and_openai_need_what_they_need():
    with pytest.raises(ModelConfigError, match="scenario's replies"):
        create_model("scripted")
    assert create_model("scripted:teacher", replies=["hi"]).model_name == "teacher"
    with pytest.raises(ModelConfigError, match="e.g. --model openai:gpt-4o-mini"):
        create_model("openai:", load_model_config(api_key="k", environ={}))


def test_importing_the_executor_pulls_in_neither_tracer_nor_the_openai_sdk():
    code = (
        "import sys, executor, executor.models.providers, executor.models.config; "
        "print(sorted(m for m in ('tracer', 'openai', 'rich', 'textual') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_credential_in_the_base_url_query_is_redacted_like_the_key(live_env, capsys, monkeypatch):
    from tracer.cli import main
    from tracer.models.live_model import build_live_model

    url = live_env.base_url + "?api-key=azure-secret-4242&api-version=2024-06-01"
    assert display_url(url).endswith("?api-key=***&api-version=2024-06-01")
    live = build_live_model("openai:fake-model", base_url=url)
    leaked = f"Connection error while calling {url}"
    assert "azure-secret-4242" not in live.redactor().redact_text(leaked)
    assert main(["models", "--model", "openai:fake-model", "--base-url", url]) == 0
    assert "azure-secret-4242" not in capsys.readouterr().out
