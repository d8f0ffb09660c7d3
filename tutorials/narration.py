"""Tutorial stops: each note of a tutorial resolved to the seq of the fixture event it talks about."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from executor.events import EventBase

from .notes_file import LANGUAGES, Note
from .registry import TUTORIALS, Tutorial, find_part

TAKEAWAYS_TITLE = {"en": "What to take away", "zh": "带走这几条"}


@dataclass(frozen=True)
class NarrationStop:
    """What the narration pane shows when the debugger reaches event `seq`.

    `show="prompt_diff"` asks a text-only walk to print what the prompt gained since the
    previous plan() call; the debugger's prompt pane shows that diff on its own.
    """

    seq: int
    title: str
    text: str
    show: str = ""
    pane: str = ""  # the debugger pane the text points at, shown at this stop


class NarrationMismatch(LookupError):
    """A note whose event is not in the trace (the fixture was re-recorded and the run changed)."""


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    return lang


def _stop_for(note: Note, lang: str, events: Sequence[EventBase], source: str) -> NarrationStop:
    event, matched = note.anchor.find(events)
    if event is None:
        raise NarrationMismatch(
            f"{source}: note {note.id!r} expects {note.anchor.describe()}, "
            f"but the trace has {matched} such event{'s' * (matched != 1)}"
        )
    return NarrationStop(event.seq, note.titles[lang], note.texts[lang], note.show, note.pane)


def _takeaways_stop(tutorial: Tutorial, lang: str, events: Sequence[EventBase]) -> NarrationStop:
    items = tutorial.notes.takeaways[lang]
    return NarrationStop(events[-1].seq, TAKEAWAYS_TITLE[lang], "\n".join(f"• {item}" for item in items))


def tutorial_stops(name: str, lang: str, events: Iterable[EventBase]) -> list[NarrationStop]:
    """The stops of tutorial `name` (or of one part, by its scenario name) on `events`, in seq order.

    The last part of a tutorial ends with its "what to take away" list on the final event.
    Raises NarrationMismatch when a note's event is missing, naming the note and that event.
    """
    check_language(lang)
    tutorial, part = find_part(name)
    events = list(events)
    if not events:
        raise NarrationMismatch(f"tutorial {tutorial.name!r}: the trace has no events")
    source = tutorial.notes_path.name
    stops = [_stop_for(note, lang, events, source) for note in tutorial.notes.notes if note.part == part.name]
    if part is tutorial.parts[-1]:
        stops.append(_takeaways_stop(tutorial, lang, events))
    stops.sort(key=lambda stop: stop.seq)
    for before, after in itertools.pairwise(stops):
        if before.seq == after.seq:
            raise NarrationMismatch(
                f"{source}: stops {before.title!r} and {after.title!r} both land on "
                f"event {after.seq}; anchor one of them elsewhere"
            )
    return stops


__all__ = ["TUTORIALS", "NarrationMismatch", "NarrationStop", "check_language", "tutorial_stops"]
