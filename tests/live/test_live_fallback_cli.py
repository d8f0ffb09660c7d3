"""The done-when of issue 14 from the command line: two real endpoints over HTTP, one down; a `--fallbacks` run
falls back, its breaker opens and later half-opens, the trace shows each step, and it verifies offline."""

import json

import pytest

from executor.recovery.circuit_breaker import reset_breakers
from tests.helpers.fake_openai_server import FakeOpenAIServer, Status
from tests.live.conftest import API_KEY
from tracer.cli import main
from tracer.trace.reader import load_trace
from tutorials.rose_pricing import REPLIES

ANSWER = "以25元计算，加价5%后的定价应为26.25元"


@pytest.fixture
def two_endpoints(live_env, monkeypatch):
    dead = FakeOpenAIServer(always=[Status(429, "slow down"), Status(500, "boom")]).start()
    monkeypatch.setenv(
        "AVAILABLE_MODELS",
        json.dumps(
            [
                {"id": "primary-model", "name": "Primary", "base_url": dead.base_url},
                {"id": "backup-model", "name": "Backup", "base_url": live_env.base_url},
            ]
        ),
    )
    reset_breakers()  # the CLI's breakers live in this test process
    yield dead, live_env
    reset_breakers()
    dead.stop()


@pytest.mark.slow  # a run against a local HTTP server, then verify: seconds
def test_a_cli_run_falls_back_opens_and_half_opens_its_breaker_and_verifies(two_endpoints, capsys, tmp_path):
    dead, healthy = two_endpoints
    healthy.push(*REPLIES)
    trace = tmp_path / "fallback_live.jsonl"
    # Calls paced 0.2 s apart outlast a 0.1 s cool-down, so every call after the opening is a trial.
    code = main(
        ["run", "rose-pricing", "--fallbacks", "--breaker-cool-down", "0.1", "--max-qps", "5", "--trace", str(trace)]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert ANSWER in out and "ran live against openai:primary-model" in out
    assert "breaker OPEN for primary-model (3 failures in 60s" in out
    assert "breaker half-open for primary-model" in out and "(answered by backup-model)" in out
    header, events, _ = load_trace(trace)
    steps = [(e.kind, getattr(e, "from_state", None)) for e in events if e.kind.startswith("breaker")]
    # Three more calls (two plans and the calculator's), each a failed trial that opens the breaker again.
    assert steps == [("breaker_open", "closed")] + [("breaker_half_open", None), ("breaker_open", "half_open")] * 3
    assert [e.answered_by for e in events if e.kind == "llm_end"] == ["backup-model"] * 4
    assert len(dead.received) == 6 and header.live and API_KEY not in trace.read_text(encoding="utf-8")

    served = len(healthy.received) + len(dead.received)
    code = main(["verify", str(trace)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "1 ok" in out and len(healthy.received) + len(dead.received) == served  # offline
