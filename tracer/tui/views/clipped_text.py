"""Cutting untrusted text down to what a pane can show quickly, always saying what was left out."""

from __future__ import annotations

from rich.text import Text

from ...report.text.literal import literal

PANE_LIMIT = 20_000  # characters of one value a pane renders; more would slow every refresh
ROW_LIMIT = 300


def first_line(text: str, limit: int = ROW_LIMIT) -> str:
    """The first non-empty line, cut to `limit` characters, without scanning a huge text."""
    head = text[: limit * 4].strip()
    line = head.split("\n", 1)[0]
    more = "…" if len(line) > limit or "\n" in head or len(text) > len(head) + 1 else ""
    return line[:limit] + more


def clipped(text: str, style: str = "", limit: int = PANE_LIMIT, keep_end: bool = False) -> Text:
    """`text` as literal Rich text; beyond `limit` characters a visible note replaces the middle or end."""
    if len(text) <= limit:
        return literal(text, style)
    if keep_end:
        half = limit // 2
        note = f"\n[… {len(text) - limit:,} characters not shown of {len(text):,} …]\n"
        return Text.assemble(literal(text[:half], style), (note, "bold yellow"), literal(text[-half:], style))
    note = f"\n[… display cut: showing {limit:,} of {len(text):,} characters]"
    return Text.assemble(literal(text[:limit], style), (note, "bold yellow"))


def common_prefix_length(a: str, b: str) -> int:
    """Length of the shared start of two (possibly very long) strings, by halving with slice compares."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
