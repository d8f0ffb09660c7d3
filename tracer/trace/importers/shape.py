"""Another tool's JSON read with the types an importer expects: a part of another type is left out, and noted."""

from __future__ import annotations

import json
import math
from typing import Any

# Deeper than any export nests (a LangSmith run tree nests two levels a run), and shallow enough
# that every value fits a trace line (orjson writes 254 levels) and the converters never recurse far.
MAX_DEPTH = 200
# A token count above this is not one (and would not fit the int64 a trace line holds).
MAX_COUNT = 2**53
# The notes a warning quotes; the rest are counted.
QUOTED = 3


def shown(value: Any) -> str:
    """A value from the file, named for a one-line message: its type, and a short literal for scalars
    (repr escapes control characters, newlines and bidi marks, so nothing in it acts on the terminal)."""
    more = "…" if isinstance(value, str) and len(value) > 30 else ""
    if isinstance(value, NumberText):
        return f"the number {value[:30]}{more}"
    if isinstance(value, str):
        return f"a string {value[:30]!r}{more}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r:.30}"
    if isinstance(value, dict):
        return f"an object of {len(value)} key(s)"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    return f"a {type(value).__name__}"


def quoted(text: Any, limit: int = 40) -> str:
    """An id or name from the file, quoted literally on one line."""
    text = str(text)
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


_CONTAINERS = (dict, list)


def nested_deeper_than(document: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether any list or object in `document` sits more than `limit` levels down; read a level at a
    time, without recursion (about half as long as json.loads took to build the document)."""
    level = [document] if type(document) in _CONTAINERS else []
    for _ in range(limit):
        if not level:
            return False
        level = [
            child
            for value in level
            for child in (value.values() if type(value) is dict else value)
            if type(child) in _CONTAINERS
        ]
    return bool(level)


class NumberText(str):
    """A number no float holds (1e400), an integer over 64 bits, or a constant JSON does not have (NaN,
    Infinity): kept as the text the file has, so no infinity reaches a time, a count or a trace line,
    and no 5,000-digit integer trips Python's limit on turning digits into an int."""


def _finite(text: str) -> float | str:
    value = float(text)
    return value if math.isfinite(value) else NumberText(text)


def _int64(text: str) -> int | str:
    if len(text) <= 18 or (len(text) <= 20 and -(2**63) <= int(text) < 2**63):
        return int(text)
    return NumberText(text)


# json's decoder with NumberText for what no float or int64 holds (raw_decode reads a value at an offset).
DECODER = json.JSONDecoder(parse_float=_finite, parse_int=_int64, parse_constant=NumberText)


def loads(text: str) -> Any:
    """json.loads, with NumberText for what no float or int64 holds. Nesting past ~1,000 levels raises
    RecursionError, as json.loads does."""
    return DECODER.decode(text)


def parsed_json(text: str) -> tuple[bool, Any]:
    """(True, the value) when `text` is JSON nested no deeper than MAX_DEPTH, else (False, None): an
    attribute holding JSON text is read as that JSON only when it is safe to, else kept as text."""
    try:
        value = loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False, None
    if isinstance(value, (dict, list)) and nested_deeper_than(value):
        return False, None
    return True, value


def identifier(value: Any) -> str | None:
    """An id as text (ids are strings, or numbers in hand-made files); None for anything else."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def name_text(value: Any, default: str) -> str:
    """A span's name: text as it is, a number as its digits, anything else (an object, a list) the default."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    return default


class ShapeNotes:
    """What an import could not read (a list that is a string, a time that is no time); it reads such
    a part as empty and goes on, and `warning()` says what was left out, so nothing is lost silently."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def note(self, where: str, value: Any, expected: str) -> None:
        self.found.append(f"{where} is {shown(value)}, not {expected}")

    def add(self, text: str) -> None:
        """A note in the importer's own words (one line, nothing from the file unquoted)."""
        self.found.append(text)

    def mapping(self, value: Any, where: str, expected: str = "an object") -> dict[str, Any]:
        """`value` if it is a JSON object; {} if it is missing (null) or of another type (noted)."""
        if isinstance(value, dict):
            return value
        if value is not None:
            self.note(where, value, expected)
        return {}

    def items(self, value: Any, where: str) -> list[Any]:
        """`value` if it is a JSON list; [] if it is missing (null) or of another type (noted)."""
        if isinstance(value, list):
            return value
        if value is not None:
            self.note(where, value, "a list")
        return []

    def objects(self, value: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
        """The objects in the list `value`, each with where it is; items of another type are noted."""
        found = []
        for index, item in enumerate(self.items(value, where)):
            if isinstance(item, dict):
                found.append((f"{where}[{index}]", item))
            else:
                self.note(f"{where}[{index}]", item, "an object")
        return found

    def count(self, value: Any, where: str) -> int | None:
        """A token count: a whole number (or a string of digits, as OTLP writes 64-bit ints); None if
        missing, and None (noted) for anything else: "lots", -3, 1e400, true."""
        if value is None:
            return None
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20:
            number: Any = int(value)
        elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
            number = int(value)
        else:
            number = value
        if isinstance(number, int) and not isinstance(number, bool) and 0 <= number < MAX_COUNT:
            return number
        self.note(where, value, "a token count")
        return None

    def warning(self) -> str | None:
        if not self.found:
            return None
        more = f"; and {len(self.found) - QUOTED} more" if len(self.found) > QUOTED else ""
        return (
            f"{len(self.found)} part(s) of the file could not be read and were left out: "
            + "; ".join(self.found[:QUOTED])
            + more
        )
