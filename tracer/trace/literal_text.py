"""Untrusted text made safe to show: every control character (terminal escapes included) made visible."""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, and C1 controls (which include CSI and OSC).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    return "␛" if char == "\x1b" else f"\\x{ord(char):02x}"


def scrub(text: object) -> str:
    """Model or tool text with every control character replaced by a visible stand-in."""
    return _CONTROL.sub(_visible, str(text))
