"""Listeners: plain callables fed one event at a time; anything else is refused before the run starts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from typing import Any

from .run_context import Listener


def check_listeners(listeners: Iterable[Any]) -> list[Listener]:
    """The listeners as a list, or a TypeError saying what was given and what a listener is.

    Caught here, a mistake is one clear line; caught later, it is a writer crashing on the
    first event, or worse, events fed to the wrong thing.
    """
    if callable(listeners) or isinstance(listeners, (str, bytes, dict)) or not _is_collection(listeners):
        raise TypeError(
            f"listeners must be a list of callables (e.g. [events.append, TraceWriter(path)]), "
            f"got {_what(listeners)}{_hint(listeners)}"
        )
    checked = list(listeners)
    for index, listener in enumerate(checked):
        if isinstance(listener, type):
            raise TypeError(
                f"listeners[{index}] is the class {listener.__qualname__}; pass an instance, "
                f"e.g. {listener.__name__}(...)"
            )
        if not callable(listener):
            raise TypeError(
                f"listeners[{index}] is {_what(listener)}, which is not callable; a listener "
                "is a function (or object with __call__) taking one event"
            )
    return checked


def _is_collection(value: Any) -> bool:
    # A generator or iterator would be used up (and is usually a mix-up, e.g. iter_events(...) passed in)
    return isinstance(value, (Sequence, Set))


def _what(value: Any) -> str:
    text = repr(value)
    return f"a {type(value).__name__} ({text if len(text) <= 60 else text[:57] + '...'})"


def _hint(value: Any) -> str:
    if callable(value) and not isinstance(value, type):
        return "; wrap a single listener in a list: listeners=[listener]"
    if isinstance(value, type):
        return "; pass a list holding an instance of it"
    return ""
