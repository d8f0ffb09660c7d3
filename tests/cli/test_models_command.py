"""`loopscope models`: the list, the default and why, where each value came from; bad configuration is one line each."""

import json

import pytest

from tests.helpers.cli_run import loopscope
from tracer.cli import main

TWO = json.dumps(
    [
        {"id": "small", "name": "Small"},
        {"id": "big", "name": "Big", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "BIG_KEY"},
    ]
)


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name in ("AVAILABLE_MODELS", "LOOPSCOPE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def models(capsys, *argv):
    return loopscope(capsys, "models", *argv)


def default_row(out):
    return next(line for line in out.splitlines() if line.startswith("default "))


def test_without_configuration_the_built_in_list_and_its_first_entry_are_shown(clean_env, capsys):
    code, out, err = models(capsys)
    assert code == 0 and err == ""
    assert "models (AVAILABLE_MODELS: built-in default (AVAILABLE_MODELS not set))" in out
    assert "  *  gpt-4o-mini" in out and "gpt-4o " in out
    assert default_row(out) == "default    openai:gpt-4o-mini   (first entry of the list (built-in default))"
    assert "warnings" not in out


def test_a_list_from_dotenv_shows_each_endpoint_and_where_it_came_from(clean_env, capsys, monkeypatch):
    (clean_env / ".env").write_text(
        f"AVAILABLE_MODELS={TWO}\nOPENAI_BASE_URL=http://127.0.0.1:8/v1\n", encoding="utf-8"
    )
    code, out, _ = models(capsys)
    rows = out.splitlines()
    assert code == 0 and rows[0].startswith("models (AVAILABLE_MODELS: .env (")
    small = next(r for r in rows if " small " in r)
    big = next(r for r in rows if " big " in r)
    assert small.startswith("  *  ") and "http://127.0.0.1:8/v1   (OPENAI_BASE_URL, .env (" in small
    assert big.endswith("http://127.0.0.1:9/v1   (AVAILABLE_MODELS entry)   key: BIG_KEY (not set)")
    assert "fallbacks  big" in out
    monkeypatch.setenv("LOOPSCOPE_MODEL", "Big")  # the environment beats .env; a name picks an entry
    code, out, _ = models(capsys)
    assert default_row(out) == "default    openai:big   (LOOPSCOPE_MODEL, environment)"
    code, out, _ = models(capsys, "--model", "small")  # and a flag beats both
    assert default_row(out) == "default    openai:small   (LOOPSCOPE_MODEL, --model flag)"


@pytest.mark.parametrize(
    ("value", "warning"),
    [
        ('[{"id": "a"', "AVAILABLE_MODELS (environment) is not valid JSON"),
        (
            '[{"id": "a", "provider": "mycloud"}, {"id": "b"}]',
            "AVAILABLE_MODELS (environment) entry #1 skipped: unknown provider 'mycloud' (available: openai, replay, scripted)",
        ),
        ("[]", "AVAILABLE_MODELS (environment) has no usable entry; using the built-in list"),
    ],
    ids=["malformed-json", "unknown-provider", "empty-list"],
)
def test_bad_configuration_is_a_one_line_warning_and_never_a_traceback(clean_env, capsys, monkeypatch, value, warning):
    monkeypatch.setenv("AVAILABLE_MODELS", value)
    code, out, err = models(capsys)
    assert code == 0 and "Traceback" not in out + err
    warnings = [line for line in out.splitlines() if line.startswith("  ! ")]
    assert len(warnings) == 1 and warnings[0].startswith("  ! " + warning)
    assert "*  " in out  # a default model is still chosen: the run never blocks on configuration


def test_a_bad_endpoint_is_a_one_line_error(clean_env, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "ftp://nowhere")
    code, out, err = models(capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "is not an http(s) URL" in err


def test_hostile_list_text_is_printed_literally(clean_env, capsys, monkeypatch):
    monkeypatch.setenv("AVAILABLE_MODELS", json.dumps([{"id": "x\x1b[31mred", "name": "[bold]loud[/bold]"}]))
    code, out, _ = models(capsys)
    assert code == 0 and "\x1b[31m" not in out and "[bold]loud[/bold]" in out


def test_fallbacks_with_a_bad_list_warns_on_one_line_and_still_runs_offline(clean_env, capsys, monkeypatch):
    monkeypatch.setenv("AVAILABLE_MODELS", '[{"id": "a", "provider": "scripted"}, {"id": "b", "provider": "nope"}]')
    code = main(["run", "rose-pricing", "--fallbacks"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err.splitlines() == [
        "loopscope: warning: AVAILABLE_MODELS (environment) entry #2 skipped: unknown "
        "provider 'nope' (available: openai, replay, scripted)"
    ]
    assert "ran live against scripted:a" in out
