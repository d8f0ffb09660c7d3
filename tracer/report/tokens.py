"""An offline token counter: roughly what an OpenAI-style BPE tokenizer would count, with no download."""

from __future__ import annotations

import math
import re

# Runs of letters/digits, single CJK characters, and single other symbols. A BPE tokenizer spends
# about one token per four characters of an English word, about one per CJK character, and one per
# punctuation mark; this counts the same pieces. It is an estimate and is always labelled as one.
_PIECES = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W_]+|\S")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """About how many tokens `text` is (0 for the empty string)."""
    count = 0
    for piece in _PIECES.findall(text):
        if len(piece) == 1 or _CJK.match(piece):
            count += 1
        else:
            count += math.ceil(len(piece) / CHARS_PER_TOKEN)
    return count
