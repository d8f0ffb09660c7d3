"""Reads a tutorial's notes file (TOML): titles, part labels, notes anchored to events, and takeaways."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from executor.events import CLASS_BY_KIND, EventBase

LANGUAGES = ("en", "zh")
SHOW_OPTIONS = ("", "prompt_diff")
# The debugger's tabbed panes a stop can point at; that pane is shown when the stop is reached.
PANE_OPTIONS = ("", "prompt", "variables", "detail")
FRAME_KEY = "frame"  # a `where` key meaning "this method is on the call stack", not a payload field
_OWN_LINE = (" ", "-", "•")  # lines that start like this are never joined to the one before
# Code points (first, last) of Chinese text and of its punctuation. Compared by number: a regex
# class this wide takes ~4 ms to compile, on every start of the tutorial.
_CJK = ((0x2014, 0x2014), (0x201C, 0x201D), (0x3000, 0x9FFF), (0xFF00, 0xFFEF))
_CJK_PUNCTUATION = ((0x2014, 0x2014), (0x201C, 0x201D), (0x3000, 0x303F), (0xFF00, 0xFFEF))


class NotesFileError(ValueError):
    """A notes file that is malformed; the message names the file and the note."""


def _ordinal(n: int) -> str:
    if n < 0:
        return "last" if n == -1 else f"{_ordinal(-n)}-from-last"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class EventAnchor:
    """Which event a note belongs to: the n-th event of a kind (negative n counts from the end),
    counting only events whose fields equal `where`. Kind and count survive a re-recording; seqs do not."""

    kind: str
    occurrence: int = 1
    where: tuple[tuple[str, Any], ...] = ()

    def matches(self, event: EventBase) -> bool:
        if event.kind != self.kind:
            return False
        for key, wanted in self.where:
            if key == FRAME_KEY:
                if wanted not in event.frames:
                    return False
            elif getattr(event, key, object()) != wanted:
                return False
        return True

    def describe(self) -> str:
        condition = ", ".join(f"{k}={v!r}" for k, v in self.where)
        return f"the {_ordinal(self.occurrence)} {self.kind} event" + (f" with {condition}" if condition else "")

    def find(self, events: Iterable[EventBase]) -> tuple[EventBase | None, int]:
        """The anchored event (or None) and how many events matched kind and `where`."""
        matching = [event for event in events if self.matches(event)]
        index = self.occurrence - 1 if self.occurrence > 0 else len(matching) + self.occurrence
        found = matching[index] if 0 <= index < len(matching) else None
        return found, len(matching)


@dataclass(frozen=True)
class Note:
    """One stop of a tutorial: where it lands and what it says in each language."""

    id: str
    part: str
    anchor: EventAnchor
    titles: Mapping[str, str]
    texts: Mapping[str, str]
    show: str = ""
    pane: str = ""


@dataclass(frozen=True)
class TutorialNotes:
    source: Path
    titles: Mapping[str, str]
    part_labels: Mapping[str, Mapping[str, str]]
    notes: tuple[Note, ...]
    takeaways: Mapping[str, tuple[str, ...]]


def _glue(left: str, right: str) -> str:
    """What joins two wrapped lines: nothing between Chinese characters or next to Chinese
    punctuation (Chinese puts no spaces between words), a space everywhere else."""
    if _starts_in(_CJK_PUNCTUATION, left) or _starts_in(_CJK_PUNCTUATION, right):
        return ""
    return "" if _starts_in(_CJK, left) and _starts_in(_CJK, right) else " "


def _starts_in(ranges: tuple[tuple[int, int], ...], text: str) -> bool:
    return bool(text) and any(first <= ord(text[0]) <= last for first, last in ranges)


def reflow(text: str) -> str:
    """Join the lines of each paragraph, so notes can be wrapped in the file and re-wrapped on screen.

    Lines that start with a space or a bullet keep their own line (lists, code, field listings).
    """
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.strip()):
        out, previous_kept = "", False
        for line in block.split("\n"):
            kept = line.startswith(_OWN_LINE)
            if not out or kept or previous_kept:
                out += ("\n" if out else "") + line.rstrip()
            else:
                out += _glue(out[-1], line.strip()[:1]) + line.strip()
            previous_kept = kept
        paragraphs.append(out)
    return "\n\n".join(paragraphs)


class _Reader:
    """Validates one file's parsed TOML, naming the file and the note in every complaint."""

    def __init__(self, source: Path, parts: Sequence[str]) -> None:
        self.source, self.parts = source, list(parts)

    def fail(self, where: str, problem: str) -> NotesFileError:
        return NotesFileError(f"{self.source.name}: {where}: {problem}")

    def languages(self, table: Any, where: str) -> dict[str, str]:
        if not isinstance(table, dict):
            raise self.fail(where, f"expected a table with {' and '.join(LANGUAGES)} text")
        missing = [lang for lang in LANGUAGES if not str(table.get(lang, "")).strip()]
        if missing:
            raise self.fail(where, f"no {', '.join(missing)} text; every text needs all of {', '.join(LANGUAGES)}")
        return {lang: reflow(str(table[lang])) for lang in LANGUAGES}

    def anchor(self, raw: dict[str, Any], where: str) -> EventAnchor:
        kind = raw.get("kind")
        if kind not in CLASS_BY_KIND:
            raise self.fail(where, f"kind {kind!r} is not an event kind; use one of {', '.join(CLASS_BY_KIND)}")
        occurrence = raw.get("occurrence", 1)
        if not isinstance(occurrence, int) or occurrence == 0:
            raise self.fail(where, "occurrence must be a non-zero whole number (1 = first, -1 = last)")
        condition = raw.get("where", {})
        if not isinstance(condition, dict):
            raise self.fail(where, 'where must be a table of field = value, e.g. where = { tool = "Search" }')
        fields = CLASS_BY_KIND[kind].model_fields
        for key in condition:
            if key != FRAME_KEY and key not in fields:
                raise self.fail(where, f"{kind} events have no field {key!r} to match on")
        return EventAnchor(kind, occurrence, tuple(sorted(condition.items())))

    def note(self, raw: dict[str, Any], index: int) -> Note:
        note_id = str(raw.get("id") or f"stop #{index + 1}")
        where = f"note {note_id!r}"
        part = raw.get("part", self.parts[0] if len(self.parts) == 1 else None)
        if part not in self.parts:
            raise self.fail(where, f"part {part!r} is not one of this tutorial's parts ({', '.join(self.parts)})")
        show = raw.get("show", "")
        if show not in SHOW_OPTIONS:
            raise self.fail(where, f"show {show!r} is not one of {SHOW_OPTIONS[1:]}")
        pane = raw.get("pane", "")
        if pane not in PANE_OPTIONS:
            raise self.fail(where, f"pane {pane!r} is not one of {PANE_OPTIONS[1:]}")
        titles, bodies = {}, {}
        for lang in LANGUAGES:
            table = raw.get(lang)
            if (
                not isinstance(table, dict)
                or not str(table.get("title", "")).strip()
                or not str(table.get("text", "")).strip()
            ):
                raise self.fail(
                    where, f"no {lang} title and text; every note needs both in each of {', '.join(LANGUAGES)}"
                )
            titles[lang] = str(table["title"]).strip()
            bodies[lang] = reflow(str(table["text"]))
        return Note(note_id, part, self.anchor(raw, where), titles, bodies, show, pane)

    def takeaways(self, raw: Any) -> dict[str, tuple[str, ...]]:
        if not isinstance(raw, dict) or any(not raw.get(lang) for lang in LANGUAGES):
            raise self.fail("takeaways", f"needs a non-empty list for each of {', '.join(LANGUAGES)}")
        return {lang: tuple(reflow(item) for item in raw[lang]) for lang in LANGUAGES}


def load_notes(source: Path, parts: Sequence[str]) -> TutorialNotes:
    """Parse and check a notes file against the tutorial's part (scenario) names."""
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotesFileError(f"{source}: no notes file; every tutorial needs one") from None
    except tomllib.TOMLDecodeError as error:
        raise NotesFileError(f"{source.name}: not valid TOML: {error}") from None
    reader = _Reader(source, parts)
    titles = reader.languages(data.get("title"), "title")
    labels_raw = data.get("parts", {})
    labels = {part: reader.languages(labels_raw.get(part), f"label of part {part!r}") for part in parts}
    notes = tuple(reader.note(raw, i) for i, raw in enumerate(data.get("stop", [])))
    ids = [note.id for note in notes]
    if len(set(ids)) != len(ids):
        raise reader.fail("stops", f"note ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return TutorialNotes(source, titles, labels, notes, reader.takeaways(data.get("takeaways")))
