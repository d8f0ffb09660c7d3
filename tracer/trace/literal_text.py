"""Untrusted text made safe to show: control characters, terminal escapes and bidi overrides made visible."""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls (which include CSI and OSC), and the
# invisible characters that reorder or hide what follows: bidi embeddings, overrides and
# isolates (U+202A-E, U+2066-9, the "Trojan Source" set), marks, and line/paragraph separators;
# and lone surrogates (a tool's text read with errors="surrogateescape"), which no terminal can
# print: measured as one cell, written out as six, they pushed a row past its pane's border.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\x1b":
        return "␛"
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def scrub(text: object) -> str:
    """Model or tool text with every control character replaced by a visible stand-in."""
    return _CONTROL.sub(_visible, str(text))


def escape_controls_in_json(text: str) -> str:
    """A JSON document with each character scrub() would replace written as a \\u escape.

    The same JSON value, safe on a terminal: json.dumps(ensure_ascii=False) escapes C0 controls
    but writes DEL, C1 controls (0x9b is CSI), bidi overrides and lone surrogates as they are.
    Outside strings JSON is ASCII without controls, so every match is inside a string.
    """
    return _CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
