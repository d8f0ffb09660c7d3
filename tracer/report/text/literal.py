"""Untrusted text as Rich Text: shown exactly, never read as markup, escapes made visible."""

from __future__ import annotations

from rich.text import Text

from ...trace.literal_text import scrub


def literal(text: object, style: str = "") -> Text:
    """A Rich Text that shows `text` exactly: markup like [bold] stays literal, escapes are neutralised."""
    return Text(scrub(text), style=style)
