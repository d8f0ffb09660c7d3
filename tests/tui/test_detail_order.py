"""The Detail pane says what happened before where it came from: a traced retry's error and delay come
before the callback's stack and origin."""

from __future__ import annotations

from tests.helpers.paths import FIXTURES
from tracer.trace.reader import load_trace
from tracer.tui.views.detail_view import detail_text


def test_a_retrys_error_and_delay_come_before_its_stack_and_origin():
    retry = next(e for e in load_trace(FIXTURES / "langchain" / "retry_steady.jsonl")[1] if e.kind == "retry")
    assert retry.stack and retry.origin  # a LangChain run's event carries both
    lines = detail_text(retry).plain.splitlines()
    first = {name: next(i for i, line in enumerate(lines) if line.startswith(name + " ")) for name in
             ("error", "delay", "stack", "origin")}  # fmt: skip
    assert max(first["error"], first["delay"]) < min(first["stack"], first["origin"]), lines
    assert first["delay"] < 12  # on screen in a 12-line pane, not below ~24 lines of stack
