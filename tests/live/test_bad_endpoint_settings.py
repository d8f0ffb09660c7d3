"""A base URL (or key) with a control character, from .env, the environment or a flag: one line, exit 2, no request."""

from __future__ import annotations

import json

import pytest

from executor.models.model_list import load_model_list
from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROSE

COMMANDS = {
    "run": ["run", "rose-pricing", "--model", "openai:fake-model"],
    "models": ["models"],
    "call": ["call", str(ROSE), "--at", "1", "--prompt-file", "{tmp}/prompt.txt", "--model", "openai:fake-model"],
    "record": ["record", "rose-pricing", "--model", "openai:fake-model", "-o", "{tmp}/rec.jsonl"],
}


def run_in(capsys, tmp_path, argv):
    """The command `argv` with `{tmp}` standing for a folder that holds the prompt file `call` reads."""
    (tmp_path / "prompt.txt").write_text("again?", encoding="utf-8")
    return loopscope(capsys, *(arg.format(tmp=tmp_path) for arg in argv))


def assert_one_line_refusal(code, out, err, *words):
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("loopscope: ") and "Traceback" not in err
    for word in words:
        assert word in err, (word, err)
    assert "\r" not in err and "\x00" not in err and "X-Evil: 1\n" not in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(
    "source, control",
    [(".env", "\\r\\n"), (".env", "\x00"), ("environment", "\r\n"), ("--base-url", "\r\n"), ("--base-url", "\x85")],
)
def test_a_base_url_with_a_control_character_is_one_line_naming_where_it_came_from(
    live_env, monkeypatch, tmp_path, capsys, command, source, control
):
    url = f"{live_env.base_url}{control}X-Evil: 1"
    argv = list(COMMANDS[command])
    monkeypatch.delenv("OPENAI_BASE_URL")
    if source == ".env":  # "\\r\\n" in double quotes is how .env writes CR LF; a NUL is written raw
        (tmp_path / ".env").write_text(f'OPENAI_BASE_URL="{url}"\n', encoding="utf-8")
    elif source == "environment":
        monkeypatch.setenv("OPENAI_BASE_URL", url)
    else:
        argv += ["--base-url", url]
    code, out, err = run_in(capsys, tmp_path, argv)
    where = {".env": ".env (", "environment": "(environment)", "--base-url": "(--base-url flag)"}[source]
    assert_one_line_refusal(code, out, err, "OPENAI_BASE_URL", where, "control character", "one line")
    assert live_env.received == []


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://[::1/v1", ("is not a valid URL", "IPv6")),
        ("http://localhost:99999/v1", ("is not a valid URL", "Port out of range")),
        ("http://localhost:eighty/v1", ("is not a valid URL",)),
        ("ftp://localhost/v1", ("is not an http(s) URL",)),
    ],
)
@pytest.mark.parametrize("command", ["run", "models"])
def test_a_base_url_that_does_not_parse_is_one_line(live_env, monkeypatch, tmp_path, capsys, url, words, command):
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    code, out, err = run_in(capsys, tmp_path, COMMANDS[command])
    assert_one_line_refusal(code, out, err, "OPENAI_BASE_URL (environment)", *words)


def test_a_key_with_a_line_break_is_refused_before_any_request_without_showing_it(
    live_env, monkeypatch, tmp_path, capsys
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-part-one\r\nX-Evil: 1")
    code, out, err = run_in(capsys, tmp_path, COMMANDS["run"])
    assert_one_line_refusal(code, out, err, "OPENAI_API_KEY (environment)", "control character")
    assert "secret-part-one" not in err and live_env.received == []


def test_a_model_list_entry_with_a_control_character_in_its_url_is_skipped_with_a_warning():
    entries = json.dumps([{"id": "a", "base_url": "http://127.0.0.1:1/v1\r\nX-Evil: 1"}, {"id": "b"}])
    listed = load_model_list(environ={"AVAILABLE_MODELS": entries}, dotenv_path="/nonexistent/.env")
    assert [entry.id for entry in listed.models] == ["b"]
    (warning,) = listed.warnings
    assert "entry #1 skipped" in warning and "control character" in warning and "\r" not in warning
