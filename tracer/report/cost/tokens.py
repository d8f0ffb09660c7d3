"""An offline token counter: roughly what an OpenAI-style BPE tokenizer would count, with no download."""

from __future__ import annotations

import math
import re

# Runs of letters/digits, single CJK characters, and single other symbols. A BPE tokenizer spends
# about one token per four characters of an English word, about one per CJK character, and one per
# punctuation mark; this counts the same pieces. It is an estimate and is always labelled as one.
# CJK (U+3040-30FF, 3400-9FFF, F900-FAFF, AC00-D7AF) is told by code point, not by a regex class:
# compiling that wide class slowed every start-up (the status line counts tokens on the
# first frame), and the written-out test is no slower.
_PIECES = re.compile(r"[^\W_]+|\S")
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """About how many tokens `text` is (0 for the empty string)."""
    count = 0
    for piece in _PIECES.findall(text):
        start = 0
        if not piece.isascii():  # CJK characters count one each until the first other character,
            for char in piece:  # whose run (CJK after it too) is one word
                code = ord(char)  # (the ranges written out: this loop meets every character of Chinese text)
                if not (
                    0x3400 <= code <= 0x9FFF
                    or 0x3040 <= code <= 0x30FF
                    or 0xAC00 <= code <= 0xD7AF
                    or 0xF900 <= code <= 0xFAFF
                ):
                    break
                start += 1
            count += start
        if start < len(piece):
            count += math.ceil((len(piece) - start) / CHARS_PER_TOKEN)
    return count
