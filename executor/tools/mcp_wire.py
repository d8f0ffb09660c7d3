"""An MCP connection's messages as they pass: the JSON-RPC id each call was sent with, the raw result that answers it."""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

# Which call the running task makes: the SDK writes a request from the task that asked for it,
# so the write stream below learns the request's id without the SDK having to hand it out.
CURRENT_CALL: contextvars.ContextVar[CallSlot | None] = contextvars.ContextVar("loopscope_mcp_call", default=None)


@dataclass(frozen=True)
class McpAnswer:
    """A tools/call result as the tool reads it (and as mcp_result records it)."""

    content: list[dict[str, Any]]
    structured: dict[str, Any] | None
    is_error: bool
    size: int


class PendingCall(Protocol):
    """A call on its way: `sent` gives its JSON-RPC id once it is written, `answer` the server's result."""

    sent: Future[int | str]
    answer: Future[McpAnswer]


class McpCaller(Protocol):
    """What an MCP tool sends its calls to: a live connection, or a recording that answers offline."""

    label: str

    def start_call(self, tool: str, arguments: dict[str, Any], timeout: float) -> PendingCall: ...


class CallSlot:
    """One request made by one task: its id once written, its raw result (or a failure the transport saw)."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.request_id: int | str | None = None
        self.raw: dict[str, Any] | None = None
        self.failure: Exception | None = None  # set by the transport: an answer over the cap, not JSON-RPC
        self.sent: Future[int | str] = Future()  # the id, once the request is written


class Wire:
    """Watches one connection: requests a CallSlot made, the responses that answer them, HTTP statuses."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.waiting: dict[str, CallSlot] = {}  # by str(id): the SDK matches "7" and 7 too
        self.rate_limited: dict[str, float | None] = {}  # HTTP 429 answers by request id: their Retry-After
        self.stray: list[str] = []  # lines that were not JSON-RPC while nothing waited (first few)

    def wrap(self, read: Any, write: Any) -> tuple[Any, Any]:
        return _ObservedRead(read, self), _ObservedWrite(write, self)

    def fail(self, request_id: Any, failure: Exception) -> bool:
        """Mark the request as failed for the reason the transport saw; False when nothing waits for it."""
        slot = self.waiting.get(str(request_id))
        if slot is None:
            return False
        slot.failure = failure
        return True

    def waiting_ids(self) -> list[int | str]:
        return [slot.request_id for slot in self.waiting.values() if slot.request_id is not None]


class _ObservedWrite:
    """The SDK's write stream, noting the id of each request a CallSlot's task sends."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self.inner, self.wire = inner, wire

    async def send(self, item: Any, /) -> None:
        slot = CURRENT_CALL.get()
        message = _payload(item)
        method = getattr(message, "method", None)
        request_id = getattr(message, "id", None)
        if slot is not None and method == slot.method and request_id is not None:
            # A resend (the server asked for a fresh tool listing first) answers under its new id.
            self.wire.waiting.pop(str(slot.request_id), None)
            slot.request_id = request_id
            self.wire.waiting[str(request_id)] = slot
        await self.inner.send(item)
        if slot is not None and slot.request_id is not None and not slot.sent.done():
            slot.sent.set_result(slot.request_id)

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> _ObservedWrite:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self.inner.__aexit__(*exc)


class _ObservedRead:
    """The SDK's read stream, keeping the raw result of each response a CallSlot waits for."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self.inner, self.wire = inner, wire

    @property
    def last_context(self) -> Any:
        return getattr(self.inner, "last_context", None)  # the HTTP transport's per-message context

    async def receive(self) -> Any:
        item = await self.inner.receive()
        message = _payload(item)
        slot = self.wire.waiting.pop(str(getattr(message, "id", None)), None)
        if slot is not None:
            result = getattr(message, "result", None)
            slot.raw = result if isinstance(result, dict) else None
        return item

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __aiter__(self) -> _ObservedRead:
        return self

    async def __anext__(self) -> Any:
        # Late: anyio is the SDK's, loaded with it (this module loads before any SDK import).
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _ObservedRead:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self.inner.__aexit__(*exc)


def _payload(item: Any) -> Any:
    """The JSON-RPC message a stream item carries: mcp 2.x's bare one, or inside 1.x's root model."""
    message = getattr(item, "message", None)
    return getattr(message, "root", message)


def observed(transport: AbstractAsyncContextManager[Any], wire: Wire) -> AbstractAsyncContextManager[Any]:
    """`transport` (an async context manager giving the SDK its streams) with its streams watched by `wire`."""

    @asynccontextmanager
    async def watched() -> AsyncIterator[tuple[Any, Any]]:
        async with transport as (read, write):
            yield wire.wrap(read, write)

    return watched()


def settled(value: Any) -> Future[Any]:
    """A Future that already holds `value` (or raises it, when it is an exception)."""
    future: Future[Any] = Future()
    if isinstance(value, BaseException):
        future.set_exception(value)
    else:
        future.set_result(value)
    return future
