"""A line diff whose - and + marks stand in a column of their own, apart from the lines' text."""

from __future__ import annotations

import difflib

from rich.text import Text

from .literal import literal

GUTTER = " │ "  # between the mark and the line: a line that starts "->" never reads as "-->" or "+->"
BETWEEN_HUNKS = "┊"
STYLES = {"-": "red", "+": "green", " ": "dim"}


def marked_diff(before: str, after: str, context: int = 1) -> Text:
    """The lines only in `before` as `- │ line`, those only in `after` as `+ │ line`, with `context`
    unchanged lines around each change as `  │ line` and a `┊` between changes far apart. Lines are
    shown literally (model and tool text). No file headers: the caller says what the two sides are."""
    old, new = before.splitlines(), after.splitlines()
    text = Text()
    # The opcodes unified_diff is built on: its own lines would have to be parsed back, and a removed
    # line "-- x" comes out as "--- x", the same as its header.
    for number, group in enumerate(difflib.SequenceMatcher(None, old, new).get_grouped_opcodes(context)):
        if number:
            text.append(f"  {BETWEEN_HUNKS}\n", style="dim")
        for tag, old_from, old_to, new_from, new_to in group:
            if tag == "equal":
                _lines(text, " ", old[old_from:old_to])
                continue
            _lines(text, "-", old[old_from:old_to])
            _lines(text, "+", new[new_from:new_to])
    return text


def continuation(line: str) -> str | None:
    """Where a wrapped diff line (one of marked_diff's) continues: under its text, past the marks' column
    and the gutter (in spaces: the wrapped text is still the line's own characters); None for other lines."""
    if len(line) >= 1 + len(GUTTER) and line[0] in STYLES and line[1 : 1 + len(GUTTER)] == GUTTER:
        return " " * (1 + len(GUTTER))
    return None


def _lines(text: Text, mark: str, lines: list[str]) -> None:
    style = STYLES[mark]
    for line in lines:
        text.append(mark, style=f"bold {style}")
        text.append(GUTTER, style="dim")
        text.append_text(literal(line, style))
        text.append("\n")
