"""OTLP JSON read a span at a time: the envelope (resourceSpans → scopeSpans → spans) walked by hand, each span parsed by the json module's C scanner, so a file of 50,000 spans is never held parsed at once."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .shape import DECODER, MAX_DEPTH, ShapeNotes, identifier, nested_deeper_than, quoted

CHUNK = 1 << 22  # characters read at a time; a span longer than this grows the window until it fits
# The lists the walk descends into, level by level; everything else is parsed whole (and dropped).
LEVELS = (("resourceSpans",), ("scopeSpans", "instrumentationLibrarySpans"), ("spans",))
_SPACE = re.compile(r"[ \t\n\r]*")
_OTLP_START = re.compile(r'\s*\{\s*"resource(Spans|Logs)"\s*:')


class TooDeep(Exception):
    """A value nested past MAX_DEPTH (or past what the json module's recursion takes), in document N."""

    def __init__(self, document: int) -> None:
        super().__init__(document)
        self.document = document


class NotJSON(Exception):
    """The text is not JSON where a value was expected: the document's number and what is wrong."""

    def __init__(self, document: int, message: str) -> None:
        super().__init__(document, message)
        self.document, self.message = document, message


def starts_as_otlp(path: Path) -> bool:
    """Whether the file's first JSON object opens with "resourceSpans" (OTLP JSON writers put it first)."""
    with path.open("rb") as handle:
        head = handle.read(4096).decode("utf-8-sig", errors="replace")  # a byte order mark is not JSON's
    return _OTLP_START.match(head) is not None


class _Window:
    """The file's text, decoded a chunk at a time; what has been parsed is dropped."""

    def __init__(self, path: Path, progress: Callable[[str, int, int], None] | None = None) -> None:
        self.handle = path.open("rb")
        self.progress, self.size = progress, path.stat().st_size
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")  # drops a leading BOM
        self.text, self.pos, self.eof = "", 0, False
        self.document = 0

    def more(self) -> bool:
        if self.eof:
            return False
        data = self.handle.read(CHUNK)
        self.eof = not data
        if self.progress is not None:  # a window's worth at a time: the bar moves through a big file
            self.progress("reading MB", self.handle.tell() >> 20, self.size >> 20)
        self.text = self.text[self.pos :] + self.decoder.decode(data, final=self.eof)
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the file)."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # always matches
            if self.pos < len(self.text) or not self.more():
                return self.text[self.pos : self.pos + 1]

    def expect(self, characters: str) -> str:
        found = self.peek()
        if not found or found not in characters:
            wanted = " or ".join(repr(c) for c in characters)
            raise NotJSON(self.document, f"expected {wanted} at character {self.pos}")
        self.pos += 1
        return found

    def value(self, depth: int) -> Any:
        """The JSON value at the window's position, parsed whole; `depth` levels of the document lie above it."""
        self.peek()
        while True:
            try:
                value, end = DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                if self.more():  # the value runs past the window: read on and parse it again
                    continue
                raise NotJSON(self.document, error.msg) from None
            except RecursionError:  # the json module gives up past ~1,000 levels
                raise TooDeep(self.document) from None
            if end == len(self.text) and not self.eof and self.text[end - 1] not in ']}"':
                self.more()  # a number or a literal cut at the window's edge: read on and parse it again
                continue
            start, self.pos = self.pos, end
            limit = MAX_DEPTH - depth
            # A value can nest no deeper than it has brackets: counting them (in C) spares the walk.
            if (
                isinstance(value, (dict, list))
                and self.text.count("{", start, end) + self.text.count("[", start, end) > limit
                and nested_deeper_than(value, limit)
            ):
                raise TooDeep(self.document)
            return value


class _Walk:
    """The descent into one file's documents, noting the parts of the wrong type."""

    def __init__(self, window: _Window, notes: ShapeNotes, logs: list[tuple[str, dict[str, Any]]]) -> None:
        self.window, self.notes, self.logs = window, notes, logs
        self.keys, self.found_spans_key = 0, False  # of the document being read: its keys, and resourceSpans

    def documents(self) -> Iterator[tuple[str, dict[str, Any]]]:
        window = self.window
        while window.peek():
            window.document += 1
            top = "resourceSpans" if window.document == 1 else f"document {window.document}: resourceSpans"
            if window.peek() != "{":
                self.notes.note(f"document {window.document}", window.value(0), "an OTLP JSON object")
                continue
            self.keys, self.found_spans_key = 0, False
            yield from self.object(0, top)
            if not self.found_spans_key:
                self.notes.add(
                    f"document {window.document} is an object of {self.keys} key(s), not an OTLP JSON object"
                )

    def object(self, level: int, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """An object of the envelope: this level's list is walked into; other values parsed and dropped."""
        window = self.window
        window.expect("{")
        if window.peek() == "}":
            window.pos += 1
            return
        while True:
            key = window.value(2 * level + 1)
            window.expect(":")
            self.keys += level == 0
            if level == 0 and key == "resourceLogs":  # a logs pipeline's document: its records, parsed whole
                self.found_spans_key = True
                self.logs += log_records(window.value(1), f"document {window.document}: resourceLogs", self.notes)
            elif isinstance(key, str) and key in LEVELS[level]:
                self.found_spans_key = self.found_spans_key or level == 0
                at = where if level == 0 else f"{where}.{key}"
                if window.peek() == "[":
                    yield from self.list(level, at)
                else:
                    self.notes.items(window.value(2 * level + 1), at)  # null is no list; anything else is noted
            else:
                window.value(2 * level + 1)
            if window.expect(",}") == "}":
                return

    def list(self, level: int, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        window = self.window
        window.expect("[")
        if window.peek() == "]":
            window.pos += 1
            return
        index = 0
        while True:
            at = f"{where}[{index}]"
            if level + 1 < len(LEVELS) and window.peek() == "{":
                yield from self.object(level + 1, at)
            else:
                item = window.value(2 * level + 2)
                if not isinstance(item, dict):
                    self.notes.note(at, item, "an object")
                elif level + 1 == len(LEVELS):
                    span_id = identifier(item.get("spanId"))
                    yield (f"span {quoted(span_id)}" if span_id else at, item)
            index += 1
            if window.expect(",]") == "]":
                return


def log_records(resource_logs: Any, where: str, notes: ShapeNotes) -> list[tuple[str, dict[str, Any]]]:
    """Every log record of a document's resourceLogs (resourceLogs → scopeLogs → logRecords), with a
    name for messages; parts of the wrong type are noted and skipped."""
    found = []
    for at_resource, resource in notes.objects(resource_logs, where):
        for at_scope, scope in notes.objects(resource.get("scopeLogs"), f"{at_resource}.scopeLogs"):
            found += notes.objects(scope.get("logRecords"), f"{at_scope}.logRecords")
    return found


def spans(
    path: Path,
    notes: ShapeNotes,
    progress: Callable[[str, int, int], None] | None = None,
    logs: list[tuple[str, dict[str, Any]]] | None = None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every span object in the file's OTLP documents (one, or one per line), with a name for
    messages: its spanId, or where it is. Parts of the wrong type are noted and skipped.
    `progress` hears how many MB of the file are read, of how many. The log records of a logs
    pipeline's documents (resourceLogs) go to `logs`, when given, as they are met."""
    window = _Window(path, progress)
    try:
        yield from _Walk(window, notes, logs if logs is not None else []).documents()
    finally:
        window.handle.close()
