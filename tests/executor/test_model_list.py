"""AVAILABLE_MODELS / LOOPSCOPE_MODEL: precedence, the built-in fallback list, and one-line warnings."""

import json

import pytest

from executor.models.config import ModelConfig
from executor.models.model_list import DEFAULT_MODELS, entry_config, load_model_list

TWO = json.dumps(
    [
        {"id": "small", "name": "Small"},
        {"id": "big", "name": "Big", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "BIG_KEY", "region": "eu"},
    ]
)


def load(tmp_path, env=None, dotenv=None, model=None):
    path = tmp_path / ".env"
    if dotenv is not None:
        path.write_text(dotenv, encoding="utf-8")
    return load_model_list(model=model, environ=env or {}, dotenv_path=path)


def test_unset_list_gives_the_built_in_list_and_its_first_entry_without_warning(tmp_path):
    listed = load(tmp_path)
    assert listed.models == DEFAULT_MODELS and listed.default == DEFAULT_MODELS[0]
    assert listed.warnings == ()
    assert "AVAILABLE_MODELS not set" in listed.origins["models"]
    assert listed.origins["default"].startswith("first entry")


def test_list_from_dotenv_keeps_order_fields_and_extra_keys(tmp_path):
    listed = load(tmp_path, dotenv=f"AVAILABLE_MODELS={TWO}\n")
    assert [m.id for m in listed.models] == ["small", "big"]
    big = listed.models[1]
    assert big.spec == "openai:big" and big.base_url == "http://127.0.0.1:9/v1" and big.extra == {"region": "eu"}
    assert listed.default.id == "small" and [m.id for m in listed.fallbacks] == ["big"]
    assert listed.origins["models"].startswith(".env (")


def test_precedence_flag_over_env_over_dotenv(tmp_path):
    env_list = json.dumps([{"id": "from-env"}, {"id": "other"}])
    dotenv = f"AVAILABLE_MODELS={TWO}\nLOOPSCOPE_MODEL=big\n"
    listed = load(tmp_path, env={"AVAILABLE_MODELS": env_list, "LOOPSCOPE_MODEL": "other"}, dotenv=dotenv)
    assert [m.id for m in listed.models] == ["from-env", "other"] and listed.origins["models"] == "environment"
    assert listed.default.id == "other" and listed.origins["default"] == "environment"
    flagged = load(tmp_path, env={"LOOPSCOPE_MODEL": "other"}, dotenv=dotenv, model="Small")
    assert flagged.default.id == "small" and flagged.origins["default"] == "--model flag"
    from_dotenv = load(tmp_path, dotenv=dotenv)
    assert from_dotenv.default.id == "big" and from_dotenv.origins["default"].startswith(".env")


def test_a_model_outside_the_list_can_still_be_the_default(tmp_path):
    listed = load(tmp_path, env={"LOOPSCOPE_MODEL": "scripted:demo"})
    assert listed.default.spec == "scripted:demo" and listed.fallbacks == DEFAULT_MODELS
    assert listed.warnings == ()
    unknown = load(tmp_path, env={"LOOPSCOPE_MODEL": "nope:x"})
    assert len(unknown.warnings) == 1 and "openai" in unknown.warnings[0]
    assert unknown.warnings[0].startswith("LOOPSCOPE_MODEL (environment) names the unknown provider 'nope'; ")


@pytest.mark.parametrize(
    "value, expected",
    [
        ('[{"id": "a",}]', "is not valid JSON (Expecting property name enclosed in double quotes at line 1"),
        ('{"id": "a"}', "must be a JSON list of objects, got dict"),
        ("[]", "has no usable entry; using the built-in list (gpt-4o-mini"),
        ('[{"id": "a", "provider": "nope"}]', "entry #1 skipped: unknown provider 'nope' (available:"),
        ('[{"name": "no id"}]', 'entry #1 skipped: "id" must be a non-empty string'),
        ('[{"id": "a", "base_url": "ftp://x"}]', 'entry #1 skipped: "base_url" is not an http(s) URL'),
        ("[3]", "entry #1 skipped: expected an object"),
        ("[" * 5000, "is not valid JSON (nested too deeply to read; it should be a flat list of objects)"),
        ("[" * 5000 + "]" * 5000, "is not valid JSON (nested too deeply to read"),
    ],
)
def test_bad_lists_fall_back_to_the_built_in_list_with_one_line_warnings(tmp_path, value, expected):
    listed = load(tmp_path, env={"AVAILABLE_MODELS": value})
    assert listed.models == DEFAULT_MODELS and listed.default == DEFAULT_MODELS[0]
    assert any(expected in warning for warning in listed.warnings), listed.warnings
    assert all("\n" not in warning for warning in listed.warnings)
    assert listed.warnings[-1].endswith("; using the built-in list (gpt-4o-mini, gpt-4o, gpt-4.1-mini)")
    whole_value_problem = "entry #" not in expected
    assert len(listed.warnings) == (1 if whole_value_problem or value == "[]" else 2)
    assert "not usable" in listed.origins["models"]


def test_deeply_nested_entries_are_skipped_with_a_short_warning_not_a_crash(tmp_path):
    deep = "[" * 600 + "]" * 600  # deep, yet within what the decoder reads
    value = f'[{deep}, {{"id": "a", "name": {{"k": {deep}}}}}, {{"id": "good"}}]'
    listed = load(tmp_path, env={"AVAILABLE_MODELS": value})
    assert [m.id for m in listed.models] == ["good"]
    assert listed.warnings == (
        'AVAILABLE_MODELS (environment) entry #1 skipped: expected an object with an "id", got a list of 1',
        "AVAILABLE_MODELS (environment) entry #2 skipped: \"name\" must be a string, got an object with keys 'k'",
    )


def test_one_bad_entry_is_skipped_and_the_rest_is_used(tmp_path):
    value = json.dumps([{"id": "x", "provider": "nope"}, {"id": "good"}])
    listed = load(tmp_path, env={"AVAILABLE_MODELS": value})
    assert [m.id for m in listed.models] == ["good"] and len(listed.warnings) == 1


def test_entry_config_uses_the_entrys_endpoint_and_key_variable(tmp_path):
    listed = load(tmp_path, env={"AVAILABLE_MODELS": TWO})
    base = ModelConfig(base_url="http://base/v1")
    small, big = listed.models
    assert entry_config(small, base, environ={}) is base
    adjusted = entry_config(big, base, environ={"BIG_KEY": "k-123"})
    assert adjusted.base_url == "http://127.0.0.1:9/v1" and adjusted.api_key.get_secret_value() == "k-123"
