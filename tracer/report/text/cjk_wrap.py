"""Wrapping mixed Chinese and English by cell width: between Chinese characters and at spaces, never inside a Latin word."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from .line_diff import continuation

# Characters a line may break before or after: Chinese (and fullwidth) characters and the
# punctuation Chinese text uses. Told by code point: a regex class this wide was slow to compile
# on every start-up (the first tutorial stop's narration is wrapped before the first frame).
_CJK_SINGLES = frozenset("\u2014\u2026\u201c\u201d\u2018\u2019")
_CJK_RANGES = ((0x2E80, 0x9FFF), (0xFF00, 0xFFEF))  # (U+3000-303F lies inside the first)

# The usual line-start and line-end rules of Chinese typesetting (kinsoku): closing punctuation
# never opens a line, an opening bracket or quote never ends one. ASCII ones too: a reply's
# "(see below)" keeps its bracket with the word.
NO_LINE_START = frozenset("，。、；：！？）》」』〉】〕〗”’…—・～％,.;:!?)]}%")
NO_LINE_END = frozenset("（《「『〈【〔〖“‘([{\u00a0")  # and a no-break space: "0.009000\u00a0秒" stays whole
# Where an over-long Latin word (a path, a dotted name, a URL) may be cut when nothing else fits.
_PATH_BREAKS = frozenset("/\\.,=&?")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return char in _CJK_SINGLES or any(first <= code <= last for first, last in _CJK_RANGES)


OTHER, CJK, SPACE = 0, 1, 2
_KINDS: dict[str, int] = {}  # each character's kind, worked out once: a long Chinese reply is thousands of lookups


def _kind(char: str) -> int:
    kind = _KINDS.get(char)
    if kind is None:
        kind = _KINDS[char] = CJK if _is_cjk(char) else SPACE if char.isspace() and char != "\u00a0" else OTHER
    return kind


def _wrap_units(text: str) -> list[str]:
    """Each Chinese character alone, each run of other non-space characters, each run of spaces."""
    return [text[start:end] for start, end in _unit_spans(text)]


def _unit_spans(text: str) -> Iterator[tuple[int, int]]:
    at, end = 0, len(text)
    kinds = [_kind(char) for char in text]
    while at < end:
        kind, start = kinds[at], at
        at += 1
        if kind == SPACE:  # a run of spaces takes an ideographic space (U+3000) along too
            while at < end and (kinds[at] == SPACE or text[at] == "\u3000"):
                at += 1
        elif kind == OTHER:  # a run of other characters; a Chinese one stands alone
            while at < end and kinds[at] == OTHER:
                at += 1
        yield start, at


def _pieces(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, is_space): the stretches a line may break between. A Latin word, a number and a
    Chinese character with the punctuation that must stay with it are one piece each."""
    pieces: list[tuple[int, int, bool]] = []
    for start, end in _unit_spans(text):
        space = _kind(text[start]) == SPACE
        if pieces and not space and not pieces[-1][2]:
            before = text[start - 1]
            if text[start] in NO_LINE_START or before in NO_LINE_END:
                pieces[-1] = (pieces[-1][0], end, False)  # glued: no break between these two
                continue
        pieces.append((start, end, space))
    return pieces


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _fold(text: str, start: int, end: int, width: int) -> Iterator[tuple[int, int]]:
    """A piece wider than a whole line, cut into lines: after a / (else a . , =) where one falls, else between
    a name and what follows it (`AgentAction(` `tool=`), and only when there is none inside a name."""
    while cell_len(text[start:end]) > width:
        cut, used = start, 0
        while cut < end and used + cell_len(text[cut]) <= width:
            used += cell_len(text[cut])
            cut += 1
        cut = max(cut, start + 1)
        inside = range(start + 1, cut)
        # A path's folders give way first: "executor/" + "agent_executor.py:224" reads better than a cut
        # at the file's dot ("executor/agent_executor." + "py:224").
        nice = max((at + 1 for at in range(start, cut) if text[at] in "/\\"), default=start)
        if nice <= start:
            nice = max((at + 1 for at in range(start, cut) if text[at] in _PATH_BREAKS), default=start)
        if nice <= start:
            nice = max((at for at in inside if not (_word_char(text[at - 1]) and _word_char(text[at]))), default=start)
        if nice > start and cut < end:  # a name stays whole when something else allows a cut
            cut = nice
        while cut - 1 > start and cut < end and (text[cut] in NO_LINE_START or text[cut - 1] in NO_LINE_END):
            if _word_char(text[cut - 1]) and _word_char(text[cut - 2]):
                break  # a name stays whole before a "." opens the next line
            cut -= 1  # the punctuation keeps its word, even here
        yield start, cut
        start = cut
    yield start, end


def line_spans(text: str, width: int, indent: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each line of one paragraph wrapped to `width` cells; spaces at a break are
    dropped. Continuation lines are `indent` cells narrower (their caller puts the indent there)."""
    width = max(width, 1)
    lines: list[tuple[int, int]] = []
    line_start: int | None = None
    line_end = used = 0
    room = width
    for start, end, space in _pieces(text):
        if space:
            continue
        if line_start is not None:
            size = cell_len(text[line_end:end])  # with the spaces before it
            if used + size <= room:
                line_end, used = end, used + size
                continue
            lines.append((line_start, line_end))
            room = max(width - indent, 1)
        else:
            start = 0  # the paragraph's own leading spaces stay on its first line
        folded = list(_fold(text, start, end, room))
        lines.extend(folded[:-1])
        line_start, line_end = folded[-1]
        used = cell_len(text[line_start:line_end])
    if line_start is not None:
        lines.append((line_start, line_end))
    return lines or [(0, 0)]


def _hanging_indent(line: str) -> str:
    """Where a wrapped line continues: past a diff line's mark and gutter, under a bullet's text, or under the second column of an
    indented two-column listing ("  tool        which tool to run"), else at the line's indent."""
    diff = continuation(line)  # a diff's line (line_diff): under its text, the marks' column kept clear
    if diff is not None:
        return diff
    lead = line[: len(line) - len(line.lstrip())]
    if line.lstrip().startswith(("• ", "- ")):
        return lead + "  "
    columns = re.match(r"\s+\S.*?\s{2,}", line) if lead else None
    return " " * cell_len(columns.group()) if columns else lead


def wrap_text(text: Text, width: int, hanging: bool = False) -> list[Text]:
    """`text` as lines of at most `width` cells, styles kept. With `hanging`, a wrapped line continues
    under its bullet or listing column (the notes' layout); otherwise at the start of the line."""
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        plain = paragraph.plain
        indent = _hanging_indent(plain) if hanging else ""
        spans = line_spans(plain, width, cell_len(indent))
        cuts = [at for start, end in spans for at in (start, end)][
            1:
        ]  # one divide: slicing one line at a time was quadratic
        pieces = paragraph.divide(cuts)[::2] if len(spans) > 1 else [paragraph[spans[0][0] : spans[0][1]]]
        for number, line in enumerate(pieces):
            lines.append(Text(indent) + line if number and indent else line)
    return lines


def wrap_note(text: str, width: int) -> str:
    """A note wrapped to `width` cells (see wrap_text): Rich only breaks at spaces, so a Chinese
    sentence with one English word in it would be pushed whole onto the next line."""
    return "\n".join(line.plain for line in wrap_text(Text(text), width, hanging=True))


class WrappedText:
    """A Text that wraps (by wrap_text) to the width it is drawn at; for Rich's and Textual's own
    wrapping, a Chinese sentence is one long word, cut wherever the pane ends. `.plain` is its text."""

    def __init__(self, text: Text, hanging: bool = False) -> None:
        self.text, self.hanging = text, hanging
        self.plain = text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text
        if "\t" in text.plain:
            text = text.copy()
            text.expand_tabs()  # in place, on the copy
        lines = wrap_text(text, max(options.max_width, 1), self.hanging)
        joined = Text("\n").join(lines)
        joined.no_wrap, joined.overflow = True, "crop"  # wrapped already: Rich must not wrap it again
        yield joined

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        longest = max((cell_len(plain[start:end]) for start, end, _ in _pieces(plain)), default=0)
        widest = max((cell_len(line) for line in plain.split("\n")), default=0)
        return Measurement(min(longest, options.max_width), min(widest, options.max_width))
