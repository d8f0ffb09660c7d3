"""A base URL's user:password@ against an endpoint whose 401 quotes the request: the password and the
Basic header made of it reach no trace, no screen and no error, through the real openai client."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from executor import AgentExecutor, ManualClock, Tool, create_react_agent
from executor.models.config import load_model_config
from executor.models.credentials import hide_credentials
from executor.models.providers.errors import ProviderAuthError
from executor.models.providers.openai_chat import OpenAIChatModel
from tests.helpers.paths import ROSE
from tracer.cli import main
from tracer.trace.writer import TraceWriter

PASSWORD = "hunter2"
BASIC = base64.b64encode(f"user:{PASSWORD}".encode()).decode()  # what httpx sends for user:hunter2@
LEAKS = (PASSWORD, BASIC)


class _Echo(BaseHTTPRequestHandler):
    server: EchoingEndpoint

    def log_message(self, format, *args):  # keep pytest output clean
        return None

    def _refuse(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.headers_seen.append(dict(self.headers.items()))
        # A debugging gateway's 401: the request line and every header, and the credentials it
        # decoded from them written back into the URL it was asked for.
        user, _, password = (
            base64.b64decode(self.headers.get("Authorization", "Basic ").split()[-1] or b"").decode().partition(":")
        )
        host = self.headers.get("Host", "")
        echoed = "".join(f"{name}: {value}\n" for name, value in self.headers.items())
        message = (
            f"unauthorized: http://{user}:{password}@{host}{self.path} (password {password!r}); "
            f"you sent:\n{self.requestline}\n{echoed}"
        )
        body = json.dumps({"error": {"message": message, "type": "unauthorized"}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _refuse


class EchoingEndpoint(ThreadingHTTPServer):
    """Answers every request 401, quoting the request back, on 127.0.0.1 in a thread."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Echo)
        self.headers_seen: list[dict[str, str]] = []
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, userinfo=f"user:{PASSWORD}@"):
        host, port = self.server_address[:2]
        return f"http://{userinfo}{host}:{port}/v1"


@pytest.fixture
def echoing(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LOOPSCOPE_MODEL", "AVAILABLE_MODELS"):
        monkeypatch.delenv(name, raising=False)
    server = EchoingEndpoint()
    server._thread.start()
    yield server
    server.shutdown()
    server.server_close()


def assert_sent_and_never_shown(server, *texts):
    # The secret was really in play: the client sent it, and the endpoint quoted it back.
    assert server.headers_seen and server.headers_seen[0].get("Authorization") == f"Basic {BASIC}"
    for text in texts:
        for leak in LEAKS:
            assert leak not in text


@pytest.mark.parametrize("source", [".env", "environment", "--base-url"])
def test_run_live_against_an_echoing_401_leaks_the_password_nowhere(echoing, source, capsys, monkeypatch, tmp_path):
    url = echoing.url()
    dotenv = "OPENAI_API_KEY=not-a-real-key\nLOOPSCOPE_MODEL=openai:m1\n"
    argv = ["run", "rose-pricing", "--live", "--max-retries", "0", "--trace", str(tmp_path / "t.jsonl")]
    if source == ".env":
        dotenv += f"OPENAI_BASE_URL={url}\n"
    elif source == "environment":
        monkeypatch.setenv("OPENAI_BASE_URL", url)
    else:
        argv += ["--base-url", url]
    (tmp_path / ".env").write_text(dotenv, encoding="utf-8")
    code = main(argv)
    out, err = capsys.readouterr()
    trace = (tmp_path / "t.jsonl").read_text(encoding="utf-8")
    assert code == 1 and "ProviderAuthError: HTTP 401" in out and "chain_error" in trace
    assert_sent_and_never_shown(echoing, trace, out, err)
    assert "Authorization: ***" in out  # what was hidden is said to be hidden


def test_call_with_an_edited_prompt_against_it_is_one_line_without_the_password(echoing, capsys, tmp_path):
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("what do roses cost?", encoding="utf-8")
    (tmp_path / ".env").write_text("OPENAI_API_KEY=not-a-real-key\n", encoding="utf-8")
    code = main(
        [
            "call",
            str(ROSE),
            "--at",
            "1",
            "--prompt-file",
            str(prompt),
            "--model",
            "openai:m1",
            "--base-url",
            echoing.url(),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "HTTP 401" in err and "Traceback" not in err
    assert_sent_and_never_shown(echoing, out, err)


def test_the_python_api_keeps_it_out_of_the_error_and_the_trace(echoing, tmp_path):
    config = load_model_config(
        base_url=echoing.url(), api_key="not-a-real-key", environ={}, dotenv_path=tmp_path / "none.env"
    )
    model = OpenAIChatModel("m1", config)
    tools = [Tool("Search", "Looks things up.", lambda query: "roses cost 25 yuan")]
    executor = AgentExecutor(agent=create_react_agent(model, tools), tools=tools, clock=ManualClock(tick=0.001))
    path = tmp_path / "api.jsonl"
    with TraceWriter(path) as writer, pytest.raises(ProviderAuthError) as raised:
        executor.invoke({"input": "what do roses cost?"}, [writer])
    assert "HTTP 401" in str(raised.value) and "user:***@" in str(raised.value)
    assert_sent_and_never_shown(echoing, str(raised.value), repr(model), path.read_text(encoding="utf-8"))


def test_a_token_alone_as_userinfo_is_hidden_too(echoing, tmp_path):
    config = load_model_config(
        base_url=echoing.url("tok3n-abcdef@"), api_key="k", environ={}, dotenv_path=tmp_path / "none.env"
    )
    with pytest.raises(ProviderAuthError) as raised:
        OpenAIChatModel("m1", config).generate("hi", [])
    token_basic = base64.b64encode(b"tok3n-abcdef:").decode()
    assert echoing.headers_seen[0]["Authorization"] == f"Basic {token_basic}"
    assert "tok3n-abcdef" not in str(raised.value) and token_basic not in str(raised.value)


@pytest.mark.parametrize(
    "text, hidden",
    [
        ("Authorization: Basic dXNlcjpodW50ZXIy accept: json", "Authorization: *** accept: json"),
        ("proxy-authorization: Digest abc, def", "proxy-authorization: *** def"),
        ("you sent Basic dXNlcjpodW50ZXIy", "you sent Basic ***"),
        ("you sent Bearer abc.def-ghi", "you sent Bearer ***"),
        ("Incorrect API key provided: sk-abc***xyz.", "Incorrect API key provided: ***."),
        ("for http://user:p@ss@host:1/v1 and https://tok@h/x", "for http://user:***@host:1/v1 and https://***@h/x"),
        ("basic training, http://host:80/v1, a@b.c", "basic training, http://host:80/v1, a@b.c"),
    ],
)
def test_error_text_loses_every_credential_shape(text, hidden):
    assert hide_credentials(text) == hidden


def test_error_text_loses_the_literal_secrets_longest_first():
    assert hide_credentials("pw hunter2 and hunter2hunter2", ["hunter2", "hunter2hunter2"]) == "pw *** and ***"


def test_every_model_of_the_list_has_its_url_password_and_key_redacted(monkeypatch, tmp_path):
    """--fallbacks: each AVAILABLE_MODELS entry may bring its own user:password@ and key variable,
    which no secret-looking name gives away (QWEN_K): the run's redactor knows them all."""
    from tracer.models.live_model import build_live_model

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "main-key-0123456789")
    monkeypatch.setenv("QWEN_K", "qwen-key-9876543210")
    monkeypatch.setenv(
        "AVAILABLE_MODELS",
        json.dumps(
            [
                {"id": "a", "base_url": "http://127.0.0.1:1/v1"},
                {"id": "b", "base_url": "http://svc:entrypass123@127.0.0.1:2/v1", "api_key_env": "QWEN_K"},
            ]
        ),
    )
    live = build_live_model(None, fallbacks=True)
    entry_basic = base64.b64encode(b"svc:entrypass123").decode()
    said = live.redactor().redact_text(f"refused entrypass123 ({entry_basic}) with qwen-key-9876543210")
    assert "entrypass123" not in said and entry_basic not in said and "qwen-key" not in said
    assert "[REDACTED:QWEN_K]" in said


def test_a_collector_url_with_a_password_is_not_printed_with_it(capsys):
    """export --otlp: the error line quotes the URL it could not reach; its password stays out."""
    code = main(["export", "--otlp", f"http://user:{PASSWORD}@127.0.0.1:1/v1/traces", str(ROSE)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "cannot reach the collector at http://user:***@" in err
    assert PASSWORD not in err


@pytest.mark.parametrize("key", ["k", "no"])
def test_a_key_of_a_letter_or_two_does_not_blank_those_letters_in_error_text(key):
    """A local server takes any key; "k" made "keep-alive" read "***eep-alive" in every error."""
    assert hide_credentials("Connection: keep-alive; no such model", [key]) == "Connection: keep-alive; no such model"


def test_a_one_letter_key_for_a_local_server_does_not_blank_that_letter_in_the_trace(monkeypatch, tmp_path):
    from tracer.models.live_model import build_live_model

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AVAILABLE_MODELS", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    live = build_live_model("openai:m", base_url="http://u:pw@127.0.0.1:1/v1")
    assert live.redactor().redact_text("the next box: pw=pwned? dTpwdw") == "the next box: pw=pwned? dTpwdw"
    assert (
        live.redactor().redact_text("see http://u:pw@127.0.0.1:1/v1")
        == "see http://u:[REDACTED:url-userinfo]@127.0.0.1:1/v1"
    )  # the shape still hides a short password
