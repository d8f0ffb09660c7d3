"""The call stack keeps '← this event' whole when the marked frame's alignment or name can give way for it
(a learner at 80x24 in Chinese read a bare '←')."""

from __future__ import annotations

import pytest

from tracer.debug.source_map import FrameLocation
from tracer.tui.panes.call_stack import StackLines

FRAMES = [
    FrameLocation("invoke", "executor/agent_executor.py", 122, True),
    FrameLocation("_take_next_step", "executor/agent_executor.py", 206, True),
    FrameLocation("perform_tool_calls", "executor/parallel.py", 68, True),
    FrameLocation("run", "executor/parallel.py", 155, True),
]


@pytest.mark.parametrize(("lang", "note", "width"), [("en", "← this event", 30), ("zh", "← 此事件", 24)])
def test_the_marked_frame_gives_up_its_alignment_before_its_note(lang, note, width):
    lines = [line.plain for line in StackLines(FRAMES, 3, lang).lines(width)]
    assert lines[3].startswith("▶ run") and lines[3].endswith(note) and ":155" in lines[3], lines
    assert all(len(line) <= width for line in lines)
    assert ":68" in lines[2] and ":206" in lines[1]  # the other frames keep their line numbers


def test_a_pane_too_narrow_for_the_words_keeps_the_arrow():
    lines = [line.plain for line in StackLines(FRAMES, 3, "en").lines(18)]
    assert lines[3].endswith("←") and ":155" in lines[3], lines
