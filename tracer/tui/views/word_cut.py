"""Cutting a one-line row to a width at a word's edge, with an ellipsis, so no word is shown half."""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len
from rich.text import Text

ELLIPSIS = "…"
MAX_LOSS = 12  # columns given up to end on a word's edge; a longer word is cut where the width ends
# After these a cut reads as a pause, not as half a word: "plan() →…", "Search(…", "a, b,…".
BREAKS_AFTER = frozenset(" ([{,;:=→←·|")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def _in_number(plain: str, index: int) -> bool:
    """Whether `index` falls inside a number (digits, and a point or comma between digits)."""
    before, after = plain[index - 1 : index], plain[index : index + 1]
    if before.isdigit() and (after.isdigit() or after in ".,"):
        return True
    return before in ".," and after.isdigit() and plain[index - 2 : index - 1].isdigit()


def word_edge(plain: str, end: int, start: int = 0) -> int:
    """The last index in [start, end] where `plain[:index]` ends a word (or `end` when there is none):
    after a space or a break mark, or beside a wide (CJK) character, which is a word of its own."""
    if end >= len(plain) or end <= start:
        return end
    for index in range(end, start, -1):
        before, after = plain[index - 1], plain[index]
        if before in BREAKS_AFTER or after == " " or _wide(before) or _wide(after):
            return index
    return end


def fit(row: Text, width: int, start: int = 0, max_loss: int = MAX_LOSS) -> Text:
    """`row` cut to `width` columns with "…" at the end, at a word's edge after `start` (the characters
    before it, a row's fixed columns, are never moved) when that loses few columns (see below)."""
    plain = row.plain
    if cell_len(plain) <= width:
        return row
    if width <= 1:
        return Text(ELLIPSIS[:width])
    room, end, used = width - 1, 0, 0
    while end < len(plain) and used + cell_len(plain[end]) <= room:
        used += cell_len(plain[end])
        end += 1
    edge = word_edge(plain, end, start)
    # Ending on a word's edge is worth a third of what the cut part shows, no more: a long word
    # after a short one ("→ 1. Rosenmontag…") says more cut than dropped.
    # A number is never cut: "1.0…" would read as a different number than 1.05.
    if edge < end and (
        _in_number(plain, end) or cell_len(plain[edge:end]) <= min(max_loss, cell_len(plain[start:end]) // 3)
    ):
        end = edge
    cut = row[:end]
    cut.rstrip()
    cut.append(ELLIPSIS)
    cut.no_wrap, cut.overflow = True, "crop"
    return cut
