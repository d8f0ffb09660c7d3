"""Wrapping mixed Chinese and English by cell width, breaking between Chinese characters (Rich breaks only at spaces)."""

from __future__ import annotations

import re

from rich.cells import cell_len

_CJK_CHAR = "\u2014\u2026\u201c\u201d\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_WRAP_UNIT = re.compile(f"[{_CJK_CHAR}]|[^\\s{_CJK_CHAR}]+|\\s+")
_NO_LINE_START = set("，。、；：！？）》」』”…—")


def _hanging_indent(line: str) -> str:
    """Where a wrapped line continues: under a bullet's text, or under the second column of an
    indented two-column listing ("  tool        which tool to run"), else at the line's indent."""
    lead = line[:len(line) - len(line.lstrip())]
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
        line = source_line[:len(source_line) - len(source_line.lstrip())]
        indent = _hanging_indent(source_line)
        for unit in _WRAP_UNIT.findall(source_line.lstrip()):
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
