"""The waterfall's rows as Rich text: the time axis, one row of cells per lane, and the line under them."""

from __future__ import annotations

import math

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ...report.text.literal import literal
from ...report.waterfall.cells import LaneCells, Window, seconds, tick_step
from ...report.waterfall.picture import CATEGORY_OF, COLOURS, ERROR, FALLBACK, TRIM, Waterfall
from .word_cut import fit

LABEL_WIDTH = 9  # "tool 3+  "
POINT_GLYPHS = {FALLBACK: "◆", TRIM: "✂", ERROR: "✗"}
FAILED = Style(color="bright_white", bgcolor="red3", bold=True)
CURSOR = Style(color="yellow", dim=True)
STYLES = [Style(bgcolor=colour, color="black") for colour in COLOURS]
AGGREGATE = [Style(color=colour, bold=True) for colour in COLOURS]
CURRENT = Style(bold=True, underline=True)
HERE = [Style(color="bright_white", bgcolor=colour, bold=True) for colour in COLOURS]


def axis_row(window: Window, cursor: int | None, label: str) -> Text:
    """`label`, then a tick and its time every few cells, and ▼ over the current event's time."""
    row = Text(f"{label:<{LABEL_WIDTH}}", style="bold", no_wrap=True)
    step = tick_step(window.t1 - window.t0, window.width)
    cells = [" "] * window.width
    marked = cursor if cursor is not None and 0 <= cursor < window.width else None
    if marked is not None:
        cells[marked] = "▼"  # first: a tick's label that would lose a digit under it is left out ("▼.5s")
    tick = math.ceil(window.t0 / step) * step
    while tick < window.t1:
        at = window.cell(tick)
        text = "╵" + seconds(tick, step)
        if (
            at >= 0
            and at + len(text) <= window.width
            and all(c == " " for c in cells[max(at - 1, 0) : at + len(text) + 1])
        ):
            cells[at : at + len(text)] = list(text)
        tick += step
    axis = Text("".join(cells), style="dim")
    if marked is not None:
        axis.stylize(Style(color="yellow", bold=True, dim=False), marked, marked + 1)
    return row + axis


def _blank(glyphs: list[tuple[str, Style | None]], start: int, end: int) -> bool:
    """Are cells start..end-1 inside the lane and free of bars and marks? (A name may cover the time
    cursor's ┊ there: the axis's ▼ still marks the time.)"""
    return end <= len(glyphs) and all(glyph in " ┊" for glyph, _style in glyphs[start:end])


def _room(glyphs: list[tuple[str, Style | None]], start: int, end: int) -> int:
    """The bar cells from `start` a name may cover: up to the first that is not the bar's (another
    bar's ✗ where the two touch), less one when something shows right after, so that names and
    marks never run together ("✗tool SupplierQuot✗tool SupplierQuote attempt 2")."""
    at = start
    while at < min(end, len(glyphs)) and glyphs[at][0] in "█▓":
        at += 1
    followed = at < len(glyphs) and glyphs[at][0] not in " ┊"
    return max(at - start - (1 if followed else 0), 0)


def _label(name: str, room: int) -> str:
    """A bar's name in `room` cells: whole; else its last words, which tell the bars of a lane apart
    (the attempt, the call id); else cut on a word's edge with …; else none (one label per bar)."""
    if cell_len(name) <= room:
        return name
    words = name.split(" ")
    for first in range(1, len(words)):
        tail = " ".join(words[first:])
        if cell_len(tail) <= room:
            return tail
    return fit(Text(name), room).plain if room >= 4 else ""


def lane_row(
    waterfall: Waterfall, name: str, cells: LaneCells, cursor: int | None, current: int | None, lang: str = "en"
) -> Text:
    """A lane: its name, then each cell: █ in a bar's colour (▓ the current event's bar), ▒ where several
    bars share a cell, ✗ where one failed, the marks of points (◆ fallback, ✂ trim, ✗ error), ┊ at the
    current event's time. Glyphs, not only colours, so a plain-text capture shows the bars too."""
    row = Text(f"{name:<{LABEL_WIDTH}}"[:LABEL_WIDTH], style="dim", no_wrap=True)
    glyphs: list[tuple[str, Style | None]] = []
    for at in range(len(cells.bars)):
        kind = int(cells.kind[at])
        if cells.bars[at] == 0 or kind < 0:
            glyphs.append(("┊", CURSOR) if at == cursor else (" ", None))
            continue
        here = current is not None and int(cells.bar[at]) == current
        if cells.failed[at]:
            glyph, style = "✗", FAILED
        elif CATEGORY_OF[kind] == 3:
            glyph, style = POINT_GLYPHS.get(kind, "•"), AGGREGATE[kind]
        elif cells.starts[at] >= 2:  # several bars begin in this one cell: too many to draw apart
            glyph, style = "▒", AGGREGATE[kind]
        else:
            glyph, style = ("▓", HERE[kind]) if here else ("█", AGGREGATE[kind])
        glyphs.append((glyph, style + CURRENT if here else style))
    for first, width, bar in cells.labels:  # a name inside the bars wide enough for it
        name = literal(waterfall.label_of(bar, lang)).plain
        label = HERE[int(waterfall.kind[bar])] + CURRENT if bar == current else STYLES[int(waterfall.kind[bar])]
        after = first + width + 1  # one blank cell between the bar's end and a name written after it
        if len(name) > width - 1 and _blank(glyphs, after - 1, after + len(name)):
            # Too long for its bar but with room after it (as a browser's waterfall writes it): whole,
            # in the bar's colour.
            outside = AGGREGATE[int(waterfall.kind[bar])] + (CURRENT if bar == current else Style())
            for offset, char in enumerate(name):
                if cell_len(char) != 1:
                    break
                glyphs[after + offset] = (char, outside)
            continue
        for offset, char in enumerate(_label(name, _room(glyphs, first + 1, first + width))):
            at = first + 1 + offset
            if cell_len(char) != 1:  # a wide (CJK) character would push the cells after it along
                break
            glyphs[at] = (char, label)
    for glyph, shown in glyphs:
        row.append(glyph, shown)
    return row
