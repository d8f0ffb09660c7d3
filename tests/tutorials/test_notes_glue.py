"""Joining a note's wrapped lines: Chinese found by code point, as the old character classes found it."""

from __future__ import annotations

import re

from tutorials.notes_file import _glue, reflow

CJK = re.compile(r"[\u2014\u201c\u201d\u3000-\u9fff\uff00-\uffef]")
CJK_PUNCTUATION = re.compile(r"[\u2014\u201c\u201d\u3000-\u303f\uff00-\uffef]")


def by_class(left: str, right: str) -> str:
    if CJK_PUNCTUATION.match(left) or CJK_PUNCTUATION.match(right):
        return ""
    return "" if CJK.match(left) and CJK.match(right) else " "


def test_characters_are_glued_as_the_character_classes_say():
    samples = ["a", "中", "，", "—", "“", "。", "ｆ", "", " ", "\uffef", "\ufff0", "\u2fff", "\u3000", "\ua000"]
    edges = {
        edge + step for edge in (0x2014, 0x201C, 0x201D, 0x3000, 0x303F, 0x9FFF, 0xFF00, 0xFFEF) for step in (-1, 0, 1)
    }
    everything = [chr(code) for code in sorted(edges | set(range(0, 0x10000, 7))) if not 0xD800 <= code <= 0xDFFF]
    for left in samples:
        for right in everything:
            assert _glue(left, right) == by_class(left, right), (left, right)
            assert _glue(right, left) == by_class(right, left), (right, left)


def test_a_chinese_note_joins_its_lines_without_spaces_and_an_english_one_with():
    assert reflow("这是第一行\n第二行。") == "这是第一行第二行。"
    assert reflow("the first line\nand the second") == "the first line and the second"
    assert reflow("用 `invoke`\n调用，") == "用 `invoke` 调用，"
