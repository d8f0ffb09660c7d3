"""A prompt diff's - and + marks stand in a column of their own: a tool call's "->" never reads as "-->" or "+->"."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import FIXTURES
from tracer.report.text.cjk_wrap import wrap_text
from tracer.report.text.line_diff import marked_diff
from tracer.tui.launch import build_session
from tracer.tui.views.prompt_view import prompt_text

BEFORE = "[system]\nBe brief.\n[assistant]\n-> read_reviews({})\n[tool]\nLao She: a long review " + "word " * 30
AFTER = "[system]\nBe brief.\n[assistant]\n-> read_reviews({})\n+ plus one\n[tool]\nTaotaoju"
GLUED = re.compile(r"^[-+]{2}|^[-+]->", re.MULTILINE)  # the old "--> read_reviews" / "+-> read_reviews"
MARKED = re.compile(r"^(?:[-+ ] │ |  ┊$|    \S)")  # a mark, a gap between changes, or a wrapped line's rest


def test_every_line_of_a_diff_starts_with_its_mark_then_the_gutter():
    diff = marked_diff("a\n-> call_1\nb\nc\nd\ne\n-- x", "a\n-> call_2\nb\nc\nd\ne\n-- y", context=1)
    lines = diff.plain.splitlines()
    assert all(MARKED.match(line) for line in lines), lines
    assert "- │ -> call_1" in lines and "+ │ -> call_2" in lines and "  │ a" in lines
    assert "- │ -- x" in lines and "+ │ -- y" in lines  # a removed "-- x" is a line, not a header
    assert "  ┊" in lines  # unchanged lines between the two changes are left out, visibly
    assert not GLUED.search(diff.plain)


def test_a_wrapped_diff_line_continues_past_the_marks_column():
    lines = [line.plain for line in wrap_text(marked_diff(BEFORE, AFTER, context=0), 30, hanging=True)]
    review = lines.index(next(line for line in lines if line.startswith("- │ Lao She")))
    assert lines[review + 1].startswith("    word")  # under its text, not under the mark
    assert all(MARKED.match(line) for line in lines if line), lines
    assert "+ │ + plus one" in lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_prompt_pane_after_the_summary_keeps_marks_apart_from_the_tool_calls(tmp_path, lang):
    session = build_session(shutil.copy(FIXTURES / "context_budget_summarize.jsonl", tmp_path / "summarize.jsonl"))
    session.goto(25)  # the plan() call after the summary: not the previous prompt plus more
    _header, body = prompt_text(session, lang)
    changed = body.plain
    assert '- │ -> read_reviews({"tool_input": "Huxinting"}) id=call_2' in changed
    assert '+ │ -> read_reviews({"tool_input": "Taotaoju"}) id=call_3' in changed
    assert not GLUED.search(changed)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_printed_walk_keeps_marks_apart_from_the_tool_calls(capsys, lang):
    code, out, _err = loopscope(capsys, "tutorial", "context-budget", "--print", "--lang", lang)
    assert code == 0
    inside = [line.strip("│").rstrip() for line in out.splitlines() if line.startswith("│")]
    assert any(line.startswith(' - │ -> read_reviews({"tool_input": "Huxinting"})') for line in inside)
    assert not any(re.match(r" [-+]{2}| [-+]->", line) for line in inside), "a mark glued to the text"
    # A long removed review wraps under its text, the marks' column kept clear.
    review = next(n for n, line in enumerate(inside) if line.startswith(" - │ Lao She Tea House"))
    assert re.match(r" {5}\S", inside[review + 1])
