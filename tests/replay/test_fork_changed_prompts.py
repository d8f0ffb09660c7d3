"""Honest forks: a later model call whose prompt changed is named, and answered as the user chose."""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers.shop_agents import record_shop
from tracer.cli import main
from tracer.replay.fork import fork_trace
from tracer.trace.transitions import Trace


@pytest.fixture
def shop(tmp_path, monkeypatch):
    def recorded(kind: str):
        return record_shop(tmp_path, kind, monkeypatch)

    yield recorded
    sys.modules.pop("shop", None)


def _stock_end(trace) -> int:
    return next(e.seq for e in Trace.load(trace).events if e.kind == "tool_end" and e.tool == "stock")


def test_by_default_a_changed_prompt_gets_the_old_reply_and_a_warning_names_the_call_and_the_change(shop, capsys):
    trace, spec = shop("react")
    at = _stock_end(trace)
    code = main(
        ["fork", str(trace), "--at", str(at), "--observation", "rose: 0 in stock", "-o", "f.jsonl"] + ["--agent", spec]
    )
    out = capsys.readouterr().out
    assert code == 0
    fork = Trace.load("f.jsonl")
    changed = [e for e in fork.events if e.kind == "llm_start" and e.seq > at]
    assert len(changed) == 2  # the next plan call, and the one after it, both hold the new observation
    first = changed[0]
    assert (
        f"warning: model call #3 (event {first.seq}) got the reply recorded for the old prompt: its prompt changed "
        "at line 28, 'Observation: rose: 40 in stock' → 'Observation: rose: 0 in stock'"
    ) in out
    assert out.count("warning: ") == 2
    assert "outcome (stale: 2 later replies recorded for other prompts; --model asks a live model" in out
    assert fork.header.after_fork == "recording"
    assert fork.outcome() == Trace.load(trace).outcome()  # the stale old answer, now said to be stale


def test_stop_at_change_ends_the_fork_at_the_changed_call_with_its_new_prompt_in_the_trace(shop, capsys):
    trace, spec = shop("react")
    at = _stock_end(trace)
    argv = ["fork", str(trace), "--at", str(at), "--observation", "rose: 0 in stock", "-o", "f.jsonl"]
    assert main([*argv, "--agent", spec, "--stop-at-change"]) == 0
    out = capsys.readouterr().out
    fork = Trace.load("f.jsonl")
    last_start = [e for e in fork.events if e.kind == "llm_start"][-1]
    assert "Observation: rose: 0 in stock" in last_start.prompt  # what the model would have been asked
    assert [e.kind for e in fork.events[last_start.seq + 1 :]] == ["chain_error"]
    assert fork.events[-1].error_type == "PromptChanged"
    assert f"the fork stops at model call #3 (event {last_start.seq}): its prompt changed at line 28" in out
    assert "outcome: stopped before model call #3 (--stop-at-change); `loopscope debug f.jsonl`" in out
    assert "warning" not in out and fork.header.after_fork == "stop"


def test_a_fork_stopped_at_a_change_has_an_outcome_of_its_own_not_error(shop, capsys, tmp_path):
    from tracer.replay.changed_prompts import PromptChanged
    from tracer.trace.transitions import STOPPED_AT_CHANGE

    assert PromptChanged.__name__ == STOPPED_AT_CHANGE  # how a trace names it, read back by runs and outcome()
    trace, spec = shop("react")
    argv = ["fork", str(trace), "--at", str(_stock_end(trace)), "--observation", "rose: 0 in stock"]
    assert main([*argv, "-o", str(tmp_path / "f.jsonl"), "--agent", spec, "--stop-at-change"]) == 0
    capsys.readouterr()
    assert Trace.load(tmp_path / "f.jsonl").outcome().startswith("stopped at change: ")
    assert main(["runs", str(tmp_path / "f.jsonl"), "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["outcome"] == "stopped_at_change" and row["errors"] == 0
    assert main(["runs", str(tmp_path / "f.jsonl"), "--where", 'outcome == "stopped_at_change"', "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_stop_at_change_and_model_are_refused_together(shop, capsys):
    trace, _spec = shop("react")
    code = main(["fork", str(trace), "--at", "5", "--observation", "x", "--stop-at-change", "--model", "scripted"])
    assert code == 2
    assert "--stop-at-change and --model each decide what answers a changed prompt" in capsys.readouterr().err


def test_a_fork_whose_later_prompts_did_not_change_warns_of_nothing(shop, tmp_path):
    trace, spec = shop("react")
    last_end = [e.seq for e in Trace.load(trace).events if e.kind == "llm_end"][-1]
    result = fork_trace(trace, last_end, reply=" Final Answer: cheap", output=tmp_path / "f.jsonl", agents=[spec])
    assert result.changed == [] and result.trace.outcome() == "finished: cheap"


def test_a_tool_calling_forks_changed_messages_are_named_too(shop, tmp_path):
    trace, spec = shop("calling")
    events = Trace.load(trace).events
    error = next(e for e in events if e.kind == "tool_error")
    result = fork_trace(trace, error.seq, observation="Shanghai: in 2 days", output=tmp_path / "f.jsonl", agents=[spec])
    assert [(c.call, c.answered) for c in result.changed] == [(2, "recording")]
    assert "'no delivery to Shanghai' → 'Shanghai: in 2 days'" in result.changed[0].difference
    assert result.trace.outcome() == Trace.load(trace).outcome()


def test_a_changed_prompt_with_terminal_escapes_is_printed_inert(shop, capsys):
    trace, spec = shop("react")
    at = _stock_end(trace)
    hostile = "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2Jrose: 0"
    assert main(["fork", str(trace), "--at", str(at), "--observation", hostile, "-o", "f.jsonl", "--agent", spec]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "warning: model call #3" in out and "\\x1b]52;c;" in out


def test_diff_of_a_stale_fork_says_its_outcome_may_be_stale(shop, tmp_path):
    from tracer.report.diff import diff_traces, render_diff

    trace, spec = shop("react")
    at = _stock_end(trace)
    stale = fork_trace(trace, at, observation="rose: 0", output=tmp_path / "stale.jsonl", agents=[spec])
    shown = "\n".join(render_diff(diff_traces(trace, stale.path)))
    seqs = ", ".join(str(c.seq) for c in stale.changed)
    assert f"note: B is a fork whose model calls at events {seqs} got the other run's replies" in shown
    stopped = fork_trace(
        trace, at, observation="rose: 0", output=tmp_path / "s.jsonl", agents=[spec], after_fork="stop"
    )
    assert "note:" not in "\n".join(render_diff(diff_traces(trace, stopped.path)))
