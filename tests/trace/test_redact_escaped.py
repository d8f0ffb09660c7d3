"""Secrets that hid from redaction: a key holding '"' or '\\' (escaped in every JSON line) and values under secret
keys inside text (a tool's JSON, a dict's repr, a header in an exception), in the trace and in every export."""

import json

import pytest

from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, ToolError, create_react_agent
from tests.helpers.loop_builders import action, finish
from tracer.cli import main
from tracer.trace.redact import Redactor
from tracer.trace.writer import TraceWriter

QUOTED_KEY = 'Kx7"quoted\\Secret'  # OPENAI_API_KEY='Kx7"quoted\Secret'
DB_PASSWORD = 'Pa$$w0rd"x'
# A tool's text with values under secret-named keys: JSON text, a Python dict's repr, a header in an error.
JSON_TEXT = '{"password": "hunter2hunter2", "api_key": "plainvalue12345", "token": "tok-abcdefgh1234"}'
DICT_REPR = repr({"Authorization": "Token abcdefghijkl", "Accept": "json"})
HEADER_ERROR = "upstream refused {'x-api-key': 'xk-9988776655'} (403)"
IN_CLEAR = ("quoted", "Pa$$w0rd", "hunter2hunter2", "plainvalue12345", "tok-abcdefgh1234", "abcdefghijkl", "9988776655")


class BlindRedactor(Redactor):
    """Redacts nothing: how a trace written before these fixes (or by another tool) holds its secrets."""

    def might_contain_secret(self, text):
        return False


def echoing_run(path, redactor=None):
    """The model echoes the key back (in its action and its answer); the tools return the rest."""

    def refuse(_):
        raise ToolError(HEADER_ERROR)

    tools = [
        Tool("Config", "Shows the configuration.", lambda _: f"DB_PASSWORD='{DB_PASSWORD}'\n{JSON_TEXT}\n{DICT_REPR}"),
        Tool("Upstream", "Calls the upstream service.", refuse, handle_tool_error=True),
    ]
    model = ScriptedModel(
        [
            action("Config", f"show, my key is {QUOTED_KEY}"),
            action("Upstream", "call"),
            finish(f"configured; your key {QUOTED_KEY} works"),
        ]
    )
    executor = AgentExecutor(agent=create_react_agent(model, tools), tools=tools, clock=ManualClock(tick=0.001))
    with TraceWriter(path, redactor=redactor) as writer:
        executor.invoke({"input": "what is configured?"}, [writer])
    return path


@pytest.fixture
def secrets_in_env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", QUOTED_KEY)
    monkeypatch.setenv("DB_PASSWORD", DB_PASSWORD)


def leaks(text):
    return [secret for secret in IN_CLEAR if secret in text]


def test_a_key_with_a_quote_or_backslash_and_secret_keys_in_text_never_reach_the_trace(tmp_path, secrets_in_env):
    text = echoing_run(tmp_path / "t.jsonl").read_text(encoding="utf-8")
    assert leaks(text) == []
    lines = [json.loads(line) for line in text.splitlines()]  # still JSON, every line
    observation = next(line["observation"] for line in lines if line.get("kind") == "tool_end")
    assert "DB_PASSWORD='[REDACTED:DB_PASSWORD]'" in observation
    assert json.loads(observation.splitlines()[1]) == {  # JSON text stays JSON
        "password": "[REDACTED:password]",
        "api_key": "[REDACTED:api_key]",
        "token": "[REDACTED:token]",
    }
    assert "{'Authorization': '[REDACTED:Authorization]', 'Accept': 'json'}" in observation
    assert "'x-api-key': '[REDACTED:x-api-key]'" in text
    assert "[REDACTED:OPENAI_API_KEY]" in text


@pytest.mark.parametrize("command", [["--html", "{out}"], ["--format", "otlp-json", "-o", "{out}"]])
def test_exports_redact_a_trace_that_holds_them_in_clear(tmp_path, secrets_in_env, command, capsys):
    """A trace written before (or by a redactor that did not know the key) is redacted on its way out."""
    trace = echoing_run(tmp_path / "t.jsonl", redactor=BlindRedactor(environ={}))
    assert set(leaks(trace.read_text(encoding="utf-8"))) >= {"quoted", "Pa$$w0rd", "hunter2hunter2"}
    out = tmp_path / "out"
    assert main(["export", *(part.format(out=out) for part in command), str(trace)]) == 0, capsys.readouterr().err
    assert leaks(out.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "text, shown",
    [
        ('{"password": "a\\"b c"}', '{"password": "[REDACTED:password]"}'),  # an escaped quote inside the value
        ("token=abcdefgh123&next=1", "token=[REDACTED:token]&next=1"),
        ("X-Api-Key: xk-9988776655", "X-Api-Key: [REDACTED:X-Api-Key]"),
    ],
)
def test_values_under_secret_keys_in_text_are_replaced_whole(text, shown):
    assert Redactor(environ={}).redact_text(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        '{"prompt_tokens": 12, "max_tokens": "1024", "tokens": "many words here"}',
        "the password: hi",  # a short bare word is a word, not a secret
        "a token is a piece of a word; secret recipes",
        "total_token: abcdefghijkl",  # another key that merely ends like one
    ],
)
def test_text_near_secret_key_names_is_left_alone(text):
    assert Redactor(environ={}).redact_text(text) == text
