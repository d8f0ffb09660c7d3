"""What LoopscopeCallbackHandler does to cost less keeps every behaviour: secrets, lines, durability."""

from __future__ import annotations

import os

from tests.helpers.langchain_rose import rose_executor, rose_inputs
from tracer import LoopscopeCallbackHandler, Trace
from tracer.bridges import langchain_stack
from tracer.bridges.langchain_recorder import environment_redactor
from tutorials import get_scenario

SECRET = "quietlyheld-4f9a2c"  # no built-in shape matches it: only the environment makes it a secret


def _record(path, question: str, **options) -> str:
    handler = LoopscopeCallbackHandler(path, raise_error=True, **options)
    rose_executor().invoke({**rose_inputs(), "input": question}, {"callbacks": [handler]})
    return path.read_text(encoding="utf-8")


def test_a_secret_put_in_the_environment_between_runs_is_redacted_in_the_next_trace(tmp_path, monkeypatch):
    monkeypatch.delenv("ROSE_SHOP_TOKEN", raising=False)
    before = _record(tmp_path / "before.jsonl", f"rose prices, key {SECRET}?")
    assert SECRET in before  # not a secret yet: the question is written as asked

    monkeypatch.setenv("ROSE_SHOP_TOKEN", SECRET)
    during = _record(tmp_path / "during.jsonl", f"rose prices, key {SECRET}?")
    assert SECRET not in during
    assert "[REDACTED:ROSE_SHOP_TOKEN]" in during

    monkeypatch.delenv("ROSE_SHOP_TOKEN")
    after = _record(tmp_path / "after.jsonl", f"rose prices, key {SECRET}?")
    assert SECRET in after and "REDACTED" not in after


def test_a_changed_value_of_the_same_variable_is_the_secret_looked_for(monkeypatch):
    monkeypatch.setenv("ROSE_SHOP_TOKEN", SECRET)
    first = environment_redactor()
    assert environment_redactor() is first  # the environment did not change: read once
    monkeypatch.setenv("ROSE_SHOP_TOKEN", "another-value-77aa1")
    again = environment_redactor()
    assert again.redact_text(f"a {SECRET} b") == f"a {SECRET} b"
    assert again.redact_text("a another-value-77aa1 b") == "a [REDACTED:ROSE_SHOP_TOKEN] b"


def test_a_redaction_pattern_added_to_the_environment_applies_to_the_next_trace(tmp_path, monkeypatch):
    _record(tmp_path / "first.jsonl", "rose prices for order ORD-123456?")
    monkeypatch.setenv("LOOPSCOPE_REDACT", r"ORD-\d{6}")
    written = _record(tmp_path / "second.jsonl", "rose prices for order ORD-123456?")
    assert "ORD-123456" not in written and "[REDACTED:pattern-1]" in written


def test_sync_false_skips_only_the_fsync_at_close(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    _record(tmp_path / "synced.jsonl", "rose prices?")
    assert len(synced) == 1  # the engine's rule: on disk before the name points at it
    _record(tmp_path / "unsynced.jsonl", "rose prices?", sync=False)
    assert len(synced) == 1
    synced_trace, unsynced_trace = Trace.load(tmp_path / "synced.jsonl"), Trace.load(tmp_path / "unsynced.jsonl")
    assert unsynced_trace.labels() == synced_trace.labels()
    assert [e.stack for e in unsynced_trace.events] == [e.stack for e in synced_trace.events]


def test_frames_read_from_the_caches_are_the_frames_read_fresh(tmp_path, monkeypatch):
    """The walk keeps each frame's line per instruction: a first run fills the caches, a second is
    served from them; both record every frame at the lines the shipped recording has."""
    monkeypatch.setattr(langchain_stack, "_code_info", {})
    monkeypatch.setattr(langchain_stack, "_moved_refs", {})
    _record(tmp_path / "fresh.jsonl", "rose prices?")
    filled = sum(len(refs) for _file, refs in langchain_stack._code_info.values())
    assert filled > 0 and langchain_stack._moved_refs
    _record(tmp_path / "cached.jsonl", "rose prices?")
    fresh, cached = Trace.load(tmp_path / "fresh.jsonl").events, Trace.load(tmp_path / "cached.jsonl").events
    assert [(e.kind, e.stack) for e in cached] == [(e.kind, e.stack) for e in fresh]
    shipped = Trace.load(get_scenario("rose-pricing-langchain").fixture).events
    assert [(e.kind, e.stack) for e in cached] == [(e.kind, e.stack) for e in shipped]
    steps = [e for e in cached if e.kind in ("step", "finish_check")]
    assert steps and all(e.stack[-1].function in ("_call", "_take_next_step") for e in steps)
    # the check is at the line that makes it, not at the call the frame was walked in
    finish_check = next(e for e in cached if e.kind == "finish_check")
    walked_line = next(e for e in cached if e.kind == "llm_start").stack
    call_frame = next(f for f in walked_line if f.function == "_call")
    assert finish_check.stack[-1].function == "_call" and finish_check.stack[-1].line != call_frame.line
