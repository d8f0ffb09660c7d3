"""Secrets never reach a fixture: keys from the environment, bearer tokens, key shapes, configured patterns."""

import json
import os
import subprocess
import sys

import pytest

from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, create_react_agent
from tests.helpers.loop_builders import action, finish
from tracer.trace.reader import load_trace
from tracer.trace.redact import Redactor
from tracer.trace.writer import TraceWriter

FAKE_KEY = "sk-fake-0123456789abcdefLOOPSCOPE"


def leaky_run(path, observation, **writer_options):
    """A run whose tool hands the model a secret, recorded with TraceWriter."""
    tools = [Tool("Config", "Shows the service configuration.", lambda _: observation)]
    model = ScriptedModel([action("Config", "show"), finish("done")])
    executor = AgentExecutor(agent=create_react_agent(model, tools), tools=tools, clock=ManualClock(tick=0.001))
    with TraceWriter(path, **writer_options) as writer:
        executor.invoke({"input": "what is configured?"}, [writer])
    return path.read_text(encoding="utf-8")


def test_a_key_from_the_environment_never_reaches_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    text = leaky_run(tmp_path / "run.jsonl", f"api_key={FAKE_KEY}", api_base="http://127.0.0.1:1")
    assert FAKE_KEY not in text
    assert "[REDACTED:OPENAI_API_KEY]" in text
    _header, events, warning = load_trace(tmp_path / "run.jsonl")  # still a valid trace
    (tool_end,) = [e for e in events if e.kind == "tool_end"]
    assert warning is None and tool_end.observation == "api_key=[REDACTED:OPENAI_API_KEY]"


@pytest.mark.slow  # the record command in a process of its own
def test_the_record_command_with_a_fake_key_in_the_environment_writes_no_key(tmp_path):
    out = tmp_path / "rose.jsonl"
    env = {**os.environ, "OPENAI_API_KEY": FAKE_KEY, "LOOPSCOPE_REDACT": "目前市场"}
    proc = subprocess.run(
        [sys.executable, "-m", "tracer.cli", "record", "rose-pricing", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert FAKE_KEY not in text
    # LOOPSCOPE_REDACT patterns apply too: the question's opening words are gone from every line.
    assert "目前市场" not in text and "[REDACTED:pattern-1]" in text
    load_trace(out)


@pytest.mark.parametrize(
    "secret, name",
    [
        ("Authorization: Bearer abcdefghijklmnop123", "authorization-header"),
        ("use bearer abcdefghijklmnop123 for it", "bearer-token"),
        ("key sk-proj-ABCDEFGHIJKLMNOPQRST here", "openai-style-key"),
        ("ghp_" + "a" * 36, "github-token"),
        ("the gateway said: BASIC dXNlcjpodW50ZXIy was refused", "basic-credentials"),
        ("proxy http://user:hunter2@127.0.0.1:8000/v1 down", "url-userinfo"),
    ],
)
def test_builtin_shapes_are_redacted(secret, name):
    redacted = Redactor(environ={}).redact_text(secret)
    assert f"[REDACTED:{name}]" in redacted
    assert not any(
        token in redacted
        for token in ("abcdefghijklmnop123", "ABCDEFGHIJKLMNOPQRST", "a" * 36, "hunter2", "dXNlcjpodW50ZXIy")
    )


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://user:hunter2@host/", "https://user:[REDACTED:url-userinfo]@host/"),
        (
            "HTTP://admin:p%40ss:w0rd@db.internal:5432/x?y=1",
            "HTTP://admin:[REDACTED:url-userinfo]@db.internal:5432/x?y=1",
        ),
        ("http://user:p@ss@host/v1", "http://user:[REDACTED:url-userinfo]@host/v1"),  # an '@' left unescaped
        ("https://ghs_tokenonly@github.com/o/r.git", "https://[REDACTED:url-userinfo]@github.com/o/r.git"),
        ("postgres://svc:s3cret@10.0.0.1/db", "postgres://svc:[REDACTED:url-userinfo]@10.0.0.1/db"),
    ],
)
def test_a_urls_userinfo_loses_its_password_and_keeps_scheme_user_and_host(url, shown):
    assert Redactor(environ={}).redact_text(f"calling {url} now") == f"calling {shown} now"


@pytest.mark.parametrize(
    "text",
    [
        "a basic understanding of Basic arithmetic and BASIC programming",
        "Basic Training starts at 9",
        "see http://example.com/a@b and mail me at roses@example.com",  # '@' after the authority is a path
        "http://host:8080/v1 and user@example.com",
    ],
)
def test_ordinary_text_near_the_shapes_is_left_alone(text):
    assert Redactor(environ={}).redact_text(text) == text


def test_an_echoed_401_body_in_a_trace_line_is_redacted_and_the_line_stays_json(tmp_path):
    """What an endpoint that quotes the request answers, arriving as a tool's observation."""
    echoed = (
        '{"error": "unauthorized; you sent POST /v1/chat/completions\\r\\nAuthorization: Basic '
        'dXNlcjpodW50ZXIy\\r\\n for http://user:hunter2@127.0.0.1:9/v1 (Basic dXNlcjpodW50ZXIy)"}'
    )
    text = leaky_run(tmp_path / "echo.jsonl", echoed, redactor=Redactor(environ={}))
    assert "hunter2" not in text and "dXNlcjpodW50ZXIy" not in text
    assert "http://user:[REDACTED:url-userinfo]@127.0.0.1:9/v1" in text
    for line in text.splitlines():
        json.loads(line)


def test_a_url_password_in_the_environment_is_a_secret_wherever_it_appears():
    environ = {
        "HTTPS_PROXY": "http://svc:longproxypass@proxy.internal:3128",
        "HOME": "/root",
        "SHORT_URL": "http://u:pw@h/",
    }  # too short to hunt for on its own, like any env value
    redactor = Redactor(environ=environ)
    assert (
        redactor.redact_text("the proxy refused longproxypass") == "the proxy refused [REDACTED:HTTPS_PROXY-password]"
    )
    basic = __import__("base64").b64encode(b"svc:longproxypass").decode()
    assert redactor.redact_text(f"sent {basic}") == "sent [REDACTED:HTTPS_PROXY-basic-credentials]"
    assert redactor.redact_text("pw is fine, and /root too") == "pw is fine, and /root too"


def test_secret_named_keys_are_blanked_and_lines_stay_json(tmp_path):
    redactor = Redactor(environ={})
    value = {"headers": {"Authorization": "Basic dXNlcjpwYXNz", "Accept": "json"}, "note": 'say "hi"'}
    assert redactor.redact(value) == {
        "headers": {"Authorization": "[REDACTED:Authorization]", "Accept": "json"},
        "note": 'say "hi"',
    }
    text = leaky_run(tmp_path / "h.jsonl", 'headers {"Authorization": "Bearer zzzzzzzzzzzzzz"}', redactor=redactor)
    for line in text.splitlines():
        json.loads(line)
    assert "zzzzzzzzzzzzzz" not in text


def test_configured_patterns_short_values_and_clean_text():
    redactor = Redactor(patterns=[r"cust-\d{6}"], environ={"SERVICE_TOKEN": "abc", "DB_PASSWORD": "hunter2hunter2"})
    assert redactor.redact_text("order for cust-123456") == "order for [REDACTED:pattern-1]"
    assert redactor.redact_text("pw hunter2hunter2") == "pw [REDACTED:DB_PASSWORD]"
    assert redactor.redact_text("abc stays: too short to be a secret") == "abc stays: too short to be a secret"
    assert not redactor.might_contain_secret("an ordinary observation about roses")
    with pytest.raises(ValueError, match="not a valid regular expression"):
        Redactor(patterns=["("])


def test_the_clue_test_says_yes_exactly_when_a_clue_is_in_the_text():
    """_has_clue is one written-out expression over grouped clues; any grouping slip shows up here.
    A clue of parts (a URL's userinfo needs "@" and "://") counts only when all its parts are there."""
    import random

    from tracer.trace.redact import _ALL_CLUES, _CLUE_PARTS, _has_clue

    def has_any_clue(text):
        return any(clue in text for clue in _ALL_CLUES) or any(all(p in text for p in parts) for parts in _CLUE_PARTS)

    rng = random.Random(13)
    alphabet = 'ab_-"sk ghpouriazAKIbec\n:/@'
    plants = [*_ALL_CLUES, *(part for parts in _CLUE_PARTS for part in parts)]
    texts = ["", "plain text with nothing", *_ALL_CLUES, *("".join(parts) for parts in _CLUE_PARTS)]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        for _ in range(rng.choice((0, 0, 1, 2))):  # plant clues, sometimes without their gate or other part
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(plants) + text[at:]
        texts.append(text.lower())
    assert any(has_any_clue(t) and not any(c in t for c in _ALL_CLUES) for t in texts)  # the parts were met
    assert any("@" in t and not has_any_clue(t) for t in texts)  # and one part alone was too
    for text in texts:
        assert _has_clue(text) == has_any_clue(text), text


def test_searching_only_the_clued_shapes_finds_what_searching_every_shape_finds():
    """might_contain_secret searches a built-in shape only when its clue is in the text: it must say
    yes exactly when some built-in shape (or a secret key given a value, in any case) matches anywhere."""
    import random
    import re

    from tracer.trace.redact import _SECRET_KEY_NEAR_VALUE, BUILTIN_PATTERNS

    every_shape = [re.compile(pattern) for pattern in BUILTIN_PATTERNS.values()]
    redactor = Redactor(environ={})
    rng = random.Random(21)
    pieces = [
        "basic ",
        "Basic ",
        "BASIC ",
        "ba\u017fic ",
        "dXNlcjpodW50ZXIy",
        "training",
        "http://",
        "https://u:",
        "pw@",
        "@",
        "host/",
        "://",
        "Bearer ",
        "bearer ",
        "authorization: ",
        "sk-",
        "sk-ant-",
        "AIza",
        "ghp_",
        "AKIA",
        "A" * 16,
        "abcdefghijklmnop",
        "\u212a",
        " ",
        "\n",
        '"',
        '"token": ',
        "Password",
        "X-API-KEY",
        "=",
        "'",
        "\\",
        "x",
        "/",
    ]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        slow = any(shape.search(text) for shape in every_shape) or bool(_SECRET_KEY_NEAR_VALUE.search(text.lower()))
        assert redactor.might_contain_secret(text) == slow, text


def test_the_environment_scan_finds_exactly_what_the_name_pattern_finds():
    """env_secrets tests a few substrings before the regex; any name the regex takes must get through."""
    import random
    import string

    from tracer.trace.redact import MIN_SECRET_LENGTH, SECRET_ENV_NAME, env_secrets

    rng = random.Random(7)
    parts = [
        "API_KEY",
        "apikey",
        "Api_Key",
        "TOKEN",
        "secret",
        "Passwd",
        "PASSWORD",
        "credential",
        "CREDENTIALS",
        "auth",
        "HOME",
        "KEY",
        "PASS",
        "_",
        "\u212aEY",
        "\u017fECRET",
        "CREDENT\u0130AL",
        "ß",
        "é",
    ]
    for _ in range(20_000):
        name = "".join(rng.choice(parts + list(string.ascii_letters)) for _ in range(rng.randint(1, 4)))
        environ = {name: rng.choice(["x" * 9, "short", "  padded  "])}
        expected = {
            n: v for n, v in environ.items() if SECRET_ENV_NAME.search(n) and len(v.strip()) >= MIN_SECRET_LENGTH
        }
        assert env_secrets(environ) == expected, name
