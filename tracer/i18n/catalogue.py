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
_AREAS = (
    "common",
    "cli",
    "cost",
    "html",
    "ledger",
    "narration",
    "runs",
    "tutorial",
    "waterfall",
    "debugger",
    "boxes",
    "panes",
    "keys",
    "help",
    "runs_table",
    "events",
    "exercise",
    "predict",
    "score",
)


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

    Arguments are inserted as values, never read as templates, so model and tool text is safe in them; an
    argument that is itself a Message is said in the same language (a sentence built of sentences)."""
    english, chinese = templates()[key]
    said = {name: value.text(lang) if isinstance(value, Message) else value for name, value in args.items()}
    return (chinese if lang == "zh" else english).format(**said)


@dataclass(frozen=True)
class Message:
    """A message not yet put into words: what a lower layer hands up for the screen to say in its language."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return say(self.key, lang, **self.args)

    def __str__(self) -> str:
        return self.text("en")

    def then(self, *more: Message | None) -> Message:
        """This message followed by `more` (those that are not None), each after a " · "."""
        said = self
        for part in more:
            if part is not None:
                said = Message("common.then", {"first": said, "then": part})
        return said


def verbatim(text: str) -> Message:
    """Text that is not the program's own words (a path, a model's reply, an error from elsewhere), said as
    it is in every language."""
    return Message("common.text", {"text": text})


class Said(Exception):
    """An error of loopscope's own whose text is a catalogue message: str() is the English, `said` the message to
    put in the reader's language."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


def said_of(error: BaseException) -> Message | str:
    """What an error says to a person: its catalogue message when it is one of ours (Said), else its own text
    on one line (LangGraph's errors add a line of links; a refusal is one line)."""
    if isinstance(error, Said):
        return error.said
    try:
        text = str(error)
    except Exception:  # a user's exception whose __str__ fails still ends the command in a sentence
        return "(its message could not be read)"
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
