"""The message catalogue: a key and named arguments in, the sentence in the reader's language out."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")

# Each area of the program keeps its messages in a module of its own here; every module holds a dict
# MESSAGES = {key: (English, Chinese)}, keys prefixed by the area so that no two modules can collide.
_AREAS = ("common", "exercise", "predict", "score")


@functools.cache
def templates() -> dict[str, tuple[str, str]]:
    """Every key with its (English, Chinese) templates, from all areas."""
    merged: dict[str, tuple[str, str]] = {}
    for area in _AREAS:
        messages: dict[str, tuple[str, str]] = importlib.import_module(f"{__package__}.{area}").MESSAGES
        clash = merged.keys() & messages.keys()
        if clash:
            raise RuntimeError(f"message keys defined twice: {sorted(clash)}")
        merged.update(messages)
    return merged


def say(key: str, lang: str = "en", /, **args: Any) -> str:
    """The message `key` in `lang` (English for any other language), its named arguments filled in.

    Arguments are inserted as values, never read as templates, so model and tool text is safe in them."""
    english, chinese = templates()[key]
    return (chinese if lang == "zh" else english).format(**args)


@dataclass(frozen=True)
class Message:
    """A message not yet put into words: what a lower layer hands up for the screen to say in its language."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return say(self.key, lang, **self.args)

    def __str__(self) -> str:
        return self.text("en")
