"""A model id in .env that carries terminal escapes: run --live, record, call and models print it escaped."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROSE
from tracer.cli import main
from tutorials.rose_pricing import REPLIES

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b"
RAW = ("\x1b", "\x07", "\x9b")
SHOWN = "fake-model␛]0;pwned\\x07␛[2J\\x9b"  # what scrub() makes of the name


@pytest.fixture
def hostile_dotenv(live_env, monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_BASE_URL")
    dotenv = f'OPENAI_BASE_URL={live_env.base_url}\nLOOPSCOPE_MODEL="openai:fake-model{ESCAPES}"\n'
    (tmp_path / ".env").write_text(dotenv, encoding="utf-8")
    return live_env


@pytest.mark.parametrize(
    "argv, replies, said",
    [
        (["run", "rose-pricing", "--live"], REPLIES, f"ran live against openai:{SHOWN} in "),
        (["record", "rose-pricing", "--live", "-o", "{tmp}/rec.jsonl"], REPLIES, f"live from openai:{SHOWN} to "),
        (["call", str(ROSE), "--at", "1", "--prompt-file", "{tmp}/prompt.txt"], ["42"], f"answered by openai:{SHOWN}"),
        (["models"], [], f"openai:{SHOWN}"),
    ],
)
def test_the_model_id_from_dotenv_is_printed_escaped(hostile_dotenv, argv, replies, said, tmp_path, capsys):
    (tmp_path / "prompt.txt").write_text("what do roses cost, in one line?", encoding="utf-8")
    hostile_dotenv.push(*replies)
    code = main([arg.format(tmp=tmp_path) for arg in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert said in out
    for raw in RAW:
        assert raw not in out and raw not in err, raw
    # the name reached the endpoint as it was written: only the terminal sees it escaped
    assert all(request.body["model"] == f"fake-model{ESCAPES}" for request in hostile_dotenv.received)
