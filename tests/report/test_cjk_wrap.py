"""Wrapping mixed Chinese and English: the units it breaks between, and the wrapped lines."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from tracer.report.text.cjk_wrap import NO_LINE_END, NO_LINE_START, WrappedText, _wrap_units, wrap_note, wrap_text

_OLD_CLASS = "\u2014\u2026\u201c\u201d\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
# what _wrap_units replaced, but for a no-break space, which now joins the run it stands in
OLD_UNITS = re.compile(f"[{_OLD_CLASS}]|(?:[^\\s{_OLD_CLASS}]|\u00a0)+|[^\\S\u00a0]+")


def test_the_code_point_scanner_splits_exactly_as_the_regex_it_replaced():
    rng = random.Random(11)
    alphabet = "ab 9:\t\u3000，。玫瑰…—“”（）é\uff01\u2e80\u2e7fx\u00a0\n"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        assert _wrap_units(text) == OLD_UNITS.findall(text), repr(text)


def test_a_unit_after_a_no_break_space_stays_with_its_number():
    text = "第 1 轮    时间 0.009000\u00a0秒"
    for width in range(11, 30):  # from where "0.009000 秒" fits on a line
        lines = wrap_note(text, width).splitlines()
        assert any("0.009000\u00a0秒" in line for line in lines), (width, lines)


def test_a_chinese_sentence_with_english_in_it_breaks_between_characters():
    lines = wrap_note("看一下 Call stack 窗格：它从 invoke 开始，这是你的脚本唯一的一次调用。", 20).splitlines()
    assert len(lines) > 2 and all(len(line) <= 20 for line in lines)
    assert not any(line.startswith(("，", "。")) for line in lines)  # no line opens with closing punctuation


LATIN_WORD = re.compile(r"[A-Za-z0-9_]+")


def _breaks_inside_a_word(text: str, lines: list[str]) -> list[str]:
    """The words of `text` that the wrapped `lines` cut in two (a line ends and the next begins inside one)."""
    cut = []
    at = 0
    for line in lines[:-1]:
        at = text.index(line.strip(), at) + len(line.strip())
        if at < len(text) and text[at - 1 : at + 1].isascii() and LATIN_WORD.fullmatch(text[at - 1 : at + 1]):
            cut.append(text[max(0, at - 10) : at + 10])
    return cut


MIXED = (
    "看调用栈窗格：最外层是 `invoke`，也就是 AgentFinish 的（唯一）那次调用。10. 情人节“玫瑰”价格在"
    " _take_next_step 里，step #3 的 Search 返回了 26.25 元；见 executor/agent_executor.py:92。"
)


def test_latin_words_and_numbers_inside_chinese_are_never_cut_when_they_fit_on_a_line():
    for width in range(23, 61):  # from where its longest word (agent_executor.py:92。) fits
        lines = wrap_note(MIXED, width).splitlines()
        assert all(cell_len(line) <= width for line in lines), width
        assert _breaks_inside_a_word(MIXED, lines) == [], (width, lines)


def test_closing_punctuation_never_opens_a_line_and_an_opening_bracket_never_ends_one():
    for width in range(8, 61):
        for line in wrap_note(MIXED, width).splitlines():
            # below 23 columns agent_executor.py:92 is cut somewhere: before ".py", not inside the name
            assert line[:1] not in NO_LINE_START or (line[:1] == "." and width < 23), (width, line)
            assert line.rstrip()[-1:] not in NO_LINE_END, (width, line)


def test_a_numbered_item_keeps_its_text_on_its_line():
    # Rich breaks at the only space, leaving "3." alone above a line of Chinese.
    lines = wrap_note("3. 花店老板采访：今年基本上进货价都在25~30元一扎（20支），节日前后还会波动。", 40).splitlines()
    assert lines[0].startswith("3. 花店老板") and cell_len(lines[0]) >= 36


def test_a_word_longer_than_the_line_is_cut_after_a_slash_before_anywhere_else():
    lines = wrap_note("executor/agent_executor.py:92", 20).splitlines()
    assert lines == ["executor/", "agent_executor.py:92"]


@pytest.mark.parametrize("width", [35, 38, 40])
def test_a_long_path_gives_way_at_its_last_folder_not_at_its_files_dot(width):
    # A zh walk once read "…executor/agent_executor." over "py:224": the fold took the last dot in reach.
    lines = wrap_note("在 /work/main/executor/agent_executor.py:224 这一行", width).splitlines()
    assert "agent_executor.py:224" in lines[-1]
    assert all(not line.endswith(".") for line in lines)


def test_wrapped_text_keeps_the_styles_of_what_it_wraps():
    text = Text("看调用栈窗格：最外层是 ")
    text.append("AgentFinish", style="bold red")
    text.append(" 的那次调用。")
    lines = wrap_text(text, 16)
    styled = [(line.plain[span.start : span.end], str(span.style)) for line in lines for span in line.spans]
    assert ("AgentFinish", "bold red") in styled and "".join(line.plain for line in lines).count("AgentFinish") == 1


def test_wrapped_text_renders_inside_the_width_it_is_given_and_measures_its_longest_word():
    console = Console(width=18, record=True, file=io.StringIO())
    console.print(WrappedText(Text(MIXED)))
    shown = console.export_text().splitlines()
    assert all(cell_len(line.rstrip()) <= 18 for line in shown)
    assert _breaks_inside_a_word(MIXED, [line.rstrip() for line in shown if line.strip()]) == []
    wide = Console(width=200, file=io.StringIO())
    measured = WrappedText(Text(MIXED)).__rich_measure__(wide, wide.options)
    assert measured.minimum == cell_len("executor/agent_executor.py:92。") and measured.maximum == cell_len(MIXED)
