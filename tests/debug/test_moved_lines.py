"""A recorded line that today's code no longer has inside the function that emitted it is flagged; a current
one never is."""

from __future__ import annotations

from pathlib import Path

from tracer.debug.source_map import SourceFile, moved_line_warning, read_source
from tracer.trace.reader import load_trace

FIXTURES = sorted(Path("fixtures").glob("*.jsonl"))

CODE = """class Loop:
    def plan(self):
        x = 1
        yield emit(
            x,
        )

    def act(self):
        for step in steps:
            yield emit(step)
"""


def test_no_shipped_fixture_event_is_flagged():
    checked = 0
    for path in FIXTURES:
        for event in load_trace(path)[1]:
            if event.source and event.source.file.startswith(("executor/", "tutorials/")):
                source = read_source(event.source.file)
                assert moved_line_warning(source, event.source.function, event.source.line) is None, event
                checked += 1
    assert checked > 300


def test_a_line_now_in_another_function_or_outside_any_is_flagged():
    source = SourceFile("executor/loop.py", tuple(CODE.splitlines()), "")
    assert moved_line_warning(source, "plan", 4) is None
    assert moved_line_warning(source, "plan", 5) is None  # inside the call's brackets, still plan's
    assert moved_line_warning(source, "act", 10) is None
    assert "line 10 is no longer in plan()" in str(moved_line_warning(source, "plan", 10))
    assert moved_line_warning(source, "act", 1) is not None  # the class line: in no function
    assert "has no line 99 now" in str(moved_line_warning(source, "plan", 99))
    assert "现在没有第 99 行" in moved_line_warning(source, "plan", 99).text("zh")
