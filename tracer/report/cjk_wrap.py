"""Wrapping mixed Chinese and English by cell width, breaking between Chinese characters (Rich breaks only at spaces)."""

from __future__ import annotations

import re

from rich.cells import cell_len

# Characters a line may break before or after: Chinese (and fullwidth) characters and the
# punctuation Chinese text uses. Told by code point: a regex class this wide took ~3 ms to compile
# on every start-up (the first tutorial stop's narration is wrapped before the first frame).
_CJK_SINGLES = frozenset("\u2014\u2026\u201c\u201d")
_CJK_RANGES = ((0x2E80, 0x9FFF), (0xFF00, 0xFFEF))  # (U+3000-303F lies inside the first)


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return char in _CJK_SINGLES or any(first <= code <= last for first, last in _CJK_RANGES)


def _wrap_units(text: str) -> list[str]:
    """Each Chinese character alone, each run of other non-space characters, each run of spaces."""
    units, at, end = [], 0, len(text)
    while at < end:
        char, start = text[at], at
        at += 1
        if char.isspace() and not _is_cjk(char):  # a run of spaces takes an ideographic space (U+3000) along too
            while at < end and text[at].isspace():
                at += 1
        elif not _is_cjk(char):  # a run of other characters; a Chinese one stands alone
            while at < end and not text[at].isspace() and not _is_cjk(text[at]):
                at += 1
        units.append(text[start:at])
    return units


_NO_LINE_START = set("，。、；：！？）》」』”…—")


def _hanging_indent(line: str) -> str:
    """Where a wrapped line continues: under a bullet's text, or under the second column of an
    indented two-column listing ("  tool        which tool to run"), else at the line's indent."""
    lead = line[: len(line) - len(line.lstrip())]
    if line.lstrip().startswith(("• ", "- ")):
        return lead + "  "
    columns = re.match(r"\s+\S.*?\s{2,}", line) if lead else None
    return " " * cell_len(columns.group()) if columns else lead


def wrap_note(text: str, width: int) -> str:
    """Wrap a note to `width` cells, breaking between any two Chinese characters.

    Rich only breaks at spaces, so a Chinese sentence with one English word in it would be
    pushed whole onto the next line; here every Chinese character is a place to break, except
    before closing punctuation.
    """
    out = []
    for source_line in text.split("\n"):
        line = source_line[: len(source_line) - len(source_line.lstrip())]
        indent = _hanging_indent(source_line)
        for unit in _wrap_units(source_line.lstrip()):
            if unit.isspace():
                line += unit if line.strip() else ""  # kept as is: notes align columns with spaces
                continue
            if line.strip() and cell_len(line + unit) > width:
                carried = ""
                if unit in _NO_LINE_START and len(line.strip()) > 1:
                    line, carried = line[:-1], line[-1]  # take a character along: no line opens with "，"
                out.append(line.rstrip())
                line = indent + carried
            line += unit
        out.append(line.rstrip())
    return "\n".join(out)
