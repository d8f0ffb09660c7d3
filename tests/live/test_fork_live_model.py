"""fork --model: a later model call whose prompt changed goes to the live model (a fake OpenAI endpoint here)."""

from __future__ import annotations

import sys

import pytest

from tests.helpers.shop_agents import record_shop
from tracer.cli import main
from tracer.trace.transitions import Trace


@pytest.fixture
def shop(live_env, tmp_path, monkeypatch):
    yield record_shop(tmp_path, "react", monkeypatch)
    sys.modules.pop("shop", None)


def test_the_changed_prompt_goes_to_the_live_model_and_the_unchanged_ones_never_do(shop, live_env, capsys):
    trace, spec = shop
    events = Trace.load(trace).events
    stock_end = next(e.seq for e in events if e.kind == "tool_end" and e.tool == "stock")
    live_env.push(" None left.\nFinal Answer: sold out, no roses to deliver")
    argv = ["fork", str(trace), "--at", str(stock_end), "--observation", "rose: 0 in stock", "-o", "f.jsonl"]
    assert main([*argv, "--agent", spec, "--model", "openai:fake-model"]) == 0
    out = capsys.readouterr().out
    assert len(live_env.received) == 1, "only the call whose prompt changed was sent"
    sent = live_env.received[0].prompt
    assert "Observation: rose: 0 in stock" in sent and "Observation: rose: 40 in stock" not in sent
    fork = Trace.load("f.jsonl")
    assert fork.outcome() == "finished: sold out, no roses to deliver"
    assert fork.header.after_fork == "live" and fork.header.live_after_fork == "fake-model"
    assert "model call #3 (event 15) went to the live model: its prompt changed at line 28" in out
    assert "warning" not in out and "outcome: finished: sold out" in out
