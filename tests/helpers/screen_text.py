"""Reading the debugger's screen as text in a Pilot test: its rows, its English words, its cut words."""

from __future__ import annotations

import io
import json
import re
import tempfile
import tokenize
from functools import lru_cache
from pathlib import Path

from rich.cells import cell_len
from textual.strip import Strip
from textual.widget import Widget

from tests.helpers.paths import ROOT
from tutorials.registry import TUTORIALS

WORD = re.compile(r"(?<![A-Za-z0-9_])_*[A-Za-z][A-Za-z0-9_]*")  # a whole word: not the tail of an id (884wywjf)
# A word that touches a pane's edge, a scrollbar or an ellipsis may have been cut there.
EDGE = re.compile(r" *(?:[\u2500-\u259f\u2026]|\.\.\.|$)")
START = re.compile(r"(?:^|[\u2500-\u259f] *| {2,}|…|\.\.\.)$")  # a word that opens a pane's row, or follows a cut
CAMEL_CASE = re.compile(r"[A-Z][a-z0-9]+[A-Z]\w*")  # a class's name, never a sentence's word
# Words a Chinese screen may show that are not anybody's English: keys, the program, units.
SHARED_WORDS = {"esc", "tab", "ctrl", "enter", "pgup", "pgdn", "del", "loopscope", "token", "py", "jsonl", "pdb"}
SHARED_WORDS |= {"debug", "live", "break", "temp", "ignore", "if", "and", "or", "not", "in", "true", "false", "None"}
SHARED_WORDS |= {"null", "bench"}  # JSON's None; the benchmarks' folder
SHARED_WORDS |= {"diff", "method", "depth", "breakpoints", "line", "file", "frames"}  # commands, condition fields
SHARED_WORDS |= {"TRACE", "KIND", "NAME", "FILE", "CONDITION", "Python", "JSON", "LangChain", "ReAct", "id"}
# The tail of the own-agent tutorial's temporary folder (loopscope-own-agent-RANDOM/) when a path is folded
# inside it: mkdtemp's 8 random characters may all be letters.
TEMP_FOLDER_TAIL = re.compile(r"(?<![\w-])(?:(?:(?:loopscope-)?own-)?agent-)?[a-z0-9_]{8}/")
SHARED_WORDS |= {"END"}  # LangGraph's end node, named as its code names it (the edge after the model node)


def _spans_left(x: int, right: int, covers: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of columns [x, right) that none of the `covers` ([start, end) columns) hides."""
    spans = [(x, right)]
    for start, end in covers:
        spans = [part for a, b in spans for part in ((a, min(b, start)), (max(a, end), b)) if part[0] < part[1]]
    return spans


def screen_rows(app, without: tuple[type[Widget], ...] = ()) -> list[str]:
    """The screen, one string per row, with the widgets of the `without` types blanked out (also those of
    the screen under a dialog, where they show beside it)."""
    screen = app.screen
    strips = screen._compositor.render_strips()
    width = screen.size.width
    dialogs = [child.region for child in screen.children if child.display and child.region.area]
    blanks = [
        (widget.region, shown is not screen)
        for shown in app.screen_stack
        for kind in without
        for widget in shown.query(kind)
        if widget.display and widget.region.area and widget.visible
    ]
    rows = []
    for y, strip in enumerate(strips):
        for region, under in blanks:
            if region.y <= y < region.bottom:
                covers = [(d.x, d.right) for d in dialogs if under and d.y <= y < d.bottom]
                for x, right in _spans_left(region.x, region.right, covers):
                    left, rest = strip.crop(0, x), strip.crop(right, width)
                    strip = Strip.join([left, Strip.blank(right - x), rest])
        rows.append(strip.text)
    return rows


@lru_cache(maxsize=1)
def executor_identifiers() -> frozenset[str]:
    """Every name in executor/ and tracer/'s code (not its comments or docstrings) and every identifier-like
    string in it: event kinds, field names, function and file names are what the debugger shows as they are."""
    names: set[str] = set()
    for folder in ("executor", "tutorials"):
        for path in (ROOT / folder).rglob("*.py"):
            names.add(path.stem)
            for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
                if token.type == tokenize.NAME:
                    names.add(token.string)
                elif token.type == tokenize.STRING and re.fullmatch(r"[rbf]?['\"][\w.-]+['\"]", token.string):
                    names.update(WORD.findall(token.string))
    return frozenset(names)


def _strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *_strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [str(value)]


@lru_cache(maxsize=32)
def run_words(fixture: Path) -> frozenset[str]:
    """Every word the run itself wrote: questions, prompts, replies, tool output, models, ids."""
    lines = fixture.read_text(encoding="utf-8").splitlines()
    return frozenset(WORD.findall(" ".join(text for line in lines for text in _strings(json.loads(line)))))


def allowed_words(tutorial: str, lang: str) -> frozenset[str]:
    notes = TUTORIALS[tutorial].notes
    texts = [text for note in notes.notes for text in (note.texts[lang], note.titles[lang])]
    texts += list(notes.takeaways.get(lang, ()))
    texts += [TUTORIALS[name].title(lang) for name in TUTORIALS]
    words = set(WORD.findall(" ".join(texts)))
    for part in TUTORIALS[tutorial].parts:
        words |= run_words(part.fixture)
    return frozenset(words | executor_identifiers() | SHARED_WORDS)


def foreign_words(rows: list[str], allowed: frozenset[str]) -> list[tuple[str, str]]:
    """(word, row) for each word on screen that is not allowed; a word cut at a pane's edge
    counts when no allowed word starts with it."""
    found = []
    for row in rows:
        row = re.sub(r"\\[nrt]", " ", row)  # an escape in a repr (\nObservation) is not a word
        row = re.sub(r"<[A-Za-z][^<>]*(?:>|$)", " ", row)  # a Python repr (<generator object …>) is the run's
        row = re.sub(re.escape(tempfile.gettempdir()) + r"/\S*", " ", row)  # a temporary folder's random name
        row = TEMP_FOLDER_TAIL.sub(" ", row)  # ... and its rest, folded onto the next row
        for match in WORD.finditer(row):
            word = match.group()
            if (
                len(word) < 2 or word in allowed or CAMEL_CASE.fullmatch(word) or re.search(r"[_\d]", word)
            ):  # names, ids
                continue
            if EDGE.match(row, match.end()) and any(other.startswith(word) for other in allowed):
                continue
            # the rest of a name too long for its line, folded onto the next one
            if START.search(row[: match.start()]) and any(other.endswith(word) for other in allowed):
                continue
            found.append((word, row.strip()))
    return found


def _longer_than_its_room(line: str, plain: str, at: int, width: int) -> bool:
    """The word at `plain[at]` would not fit between where it starts on `line` and the pane's edge:
    folding it was the only choice."""
    token = line.split()[-1] if line.split() else ""
    start, end = at, at
    while start > 0 and re.match(r"\w", plain[start - 1]):
        start -= 1
    while end < len(plain) and re.match(r"\w", plain[end]):
        end += 1
    return cell_len(plain[start:end]) > width - (cell_len(line) - cell_len(token))


def cut_words(lines: list[str], plain: str, width: int = 0) -> list[str]:
    """Words of `plain` that the wrapped `lines` (its rendering, in order) break between two lines:
    the characters either side of a line's end stand side by side in `plain`, both inside a word."""
    where = [at for at, char in enumerate(plain) if not char.isspace()]  # plain's index of each shown character
    cut, shown = [], 0
    for line in lines[:-1]:
        shown += len(re.sub(r"\s+", "", line))
        if not 0 < shown < len(where):
            continue
        before, after = where[shown - 1], where[shown]
        if width and _longer_than_its_room(line, plain, before, width):
            continue
        if after == before + 1 and re.fullmatch(r"[A-Za-z0-9_]{2}", plain[before : after + 1]):
            cut.append(plain[max(0, before - 10) : before + 1] + "|" + plain[after : after + 10])
    return cut
