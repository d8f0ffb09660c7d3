"""A LangChain callback that fails never reaches the user's run: its events are dropped, counted, and said."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

logger = logging.getLogger("loopscope")

# What the trace's last event carries (in `origin`) when callbacks were dropped; the reader says it.
DROPPED_KEY = "dropped"
_REASON_LIMIT = 200


class GuardedHandler(Protocol):
    """What `guarded` needs of the handler whose callbacks it wraps."""

    raise_error: bool

    def callback_failed(self, callback: str, error: BaseException, run_id: Any) -> None: ...


Handler = TypeVar("Handler", bound=GuardedHandler)
Arguments = ParamSpec("Arguments")


def one_line(error: BaseException) -> str:
    """`TypeName: message` on one line, short; an exception whose str() fails still gets its type."""
    try:
        message = str(error)
    except Exception:  # a hostile __str__: the type is still worth saying
        message = "(its message could not be read)"
    text = " ".join(f"{type(error).__name__}: {message}".split())
    return text if len(text) <= _REASON_LIMIT else text[:_REASON_LIMIT] + "…"


class DroppedCallbacks:
    """Callbacks whose events could not be recorded: how many, and the first one's reason."""

    def __init__(self) -> None:
        self.count = 0
        self.first: str | None = None

    def add(self, callback: str, error: BaseException) -> None:
        self.count += 1
        if self.first is None:
            self.first = f"{callback}: {one_line(error)}"
            logger.warning(
                "loopscope: LoopscopeCallbackHandler could not record %s; the run goes on, and the "
                "trace's last event will say how many callbacks were dropped",
                self.first,
            )

    def note(self) -> dict[str, Any] | None:
        """What the trace's last event carries under DROPPED_KEY, or None when nothing was dropped."""
        return {"callbacks": self.count, "first": self.first} if self.count else None


def guarded(
    callback: Callable[Concatenate[Handler, Arguments], None],
) -> Callable[Concatenate[Handler, Arguments], None]:
    """The callback, made never to raise into LangChain (so never into the user's run) unless the
    handler's raise_error asks for it: a failure is handed to the handler's `callback_failed`."""

    @functools.wraps(callback)
    def guarded_callback(self: Handler, *args: Arguments.args, **kwargs: Arguments.kwargs) -> None:
        try:
            callback(self, *args, **kwargs)
        except Exception as error:
            if self.raise_error:
                raise
            self.callback_failed(callback.__name__, error, kwargs.get("run_id"))

    return guarded_callback
