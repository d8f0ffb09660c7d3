"""Which language the debugger speaks, and the few lookups by key its screens share (the words are in tracer/i18n)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..i18n import say, templates
from .views.tutorial_place import narration_language

if TYPE_CHECKING:  # `loopscope runs` prints with localise: no Textual for it
    from textual.binding import Binding


def localise(text: str, lang: str) -> str:
    """A title of `loopscope runs`' printed tables, by its English word (tracer/cli/runs.py asks: its columns
    and --by titles carry English titles); anything else unchanged. A direct lookup, no patterns."""
    if lang == "en":
        return text
    for area in ("runs_table.column.", "runs_table.title."):
        for key, (english, _chinese) in templates().items():
            if key.startswith(area) and english == text:
                return say(key, lang)
    return text


def key_name(key: str, lang: str) -> str | None:
    """A key named by a word, in `lang` (None: the key's own name is shown)."""
    return say(f"keys.name.{key}", lang) if lang != "en" and f"keys.name.{key}" in templates() else None


def binding_words(binding: Binding, lang: str) -> str:
    """What a key does, in `lang`: its binding id's words, unless its description was changed from them
    (a motion key at a tool's function says what it does there)."""
    key = f"keys.{binding.id}"
    if key in templates() and binding.description == say(key, "en"):
        return say(key, lang)
    return binding.description


def app_language(app: object) -> str:
    """The language of the debugger screen under a modal one (English when there is none)."""
    for screen in reversed(getattr(app, "screen_stack", [])):
        if hasattr(screen, "lang") and hasattr(screen, "session"):
            return str(screen.lang)
    return str(getattr(app, "lang", "en"))


def chrome_language(stops: Sequence[Any]) -> str:
    """The debugger speaks the language of the tutorial's notes (English elsewhere)."""
    return narration_language(stops) if stops else "en"
