"""Driving the event generator from asyncio: events out, awaited results back in."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .awaiting import AwaitRequest
from .events import EventBase


class AsyncEventStream:
    """What `aiter_events` returns: `async for event in stream`, then `stream.result` is the result dict.

    Each `__anext__` steps the same generator `iter_events` is; an AwaitRequest coming up the
    chain is awaited here and its result (or its exception) sent back down, so the tool or model
    that asked sees an ordinary return value (or raise).
    """

    def __init__(self, events: Generator[Any, Any, Any]) -> None:
        self._events = events
        self._result: dict[str, Any] | None = None

    @property
    def result(self) -> dict[str, Any]:
        """The run's result dict, once `async for` has reached the end."""
        if self._result is None:
            raise RuntimeError("the run has not finished: iterate the stream to its end before reading result")
        return self._result

    def __aiter__(self) -> AsyncEventStream:
        return self

    async def __anext__(self) -> EventBase:
        reply: Any = None
        error: BaseException | None = None
        while True:
            try:
                item = self._events.send(reply) if error is None else self._events.throw(error)
            except StopIteration as stop:
                self._result = stop.value
                raise StopAsyncIteration from None
            if not isinstance(item, AwaitRequest):
                return item
            try:
                reply, error = await item.awaitable, None
            except BaseException as failure:  # cancellation too: it unwinds the loop like any raise
                reply, error = None, failure

    async def aclose(self) -> None:
        """Stop early: the generator chain is closed (its finally blocks run)."""
        self._events.close()
