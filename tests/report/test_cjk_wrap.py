"""Wrapping mixed Chinese and English: the units it breaks between, and the wrapped lines."""

from __future__ import annotations

import random
import re

from tracer.report.cjk_wrap import _wrap_units, wrap_note

_OLD_CLASS = "\u2014\u2026\u201c\u201d\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
OLD_UNITS = re.compile(f"[{_OLD_CLASS}]|[^\\s{_OLD_CLASS}]+|\\s+")  # what _wrap_units replaced


def test_the_code_point_scanner_splits_exactly_as_the_regex_it_replaced():
    rng = random.Random(11)
    alphabet = "ab 9:\t\u3000，。玫瑰…—“”（）é\uff01\u2e80\u2e7fx\u00a0\n"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        assert _wrap_units(text) == OLD_UNITS.findall(text), repr(text)


def test_a_chinese_sentence_with_english_in_it_breaks_between_characters():
    lines = wrap_note("看一下 Call stack 窗格：它从 invoke 开始，这是你的脚本唯一的一次调用。", 20).splitlines()
    assert len(lines) > 2 and all(len(line) <= 20 for line in lines)
    assert not any(line.startswith(("，", "。")) for line in lines)  # no line opens with closing punctuation
