"""The streamable HTTP transport (the SDK's), through an HTTP client that caps each answer and notes every 429."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.client.streamable_http import streamable_http_client

from .mcp_sdk import MAJOR

if MAJOR == 2:
    import httpx2
else:  # mcp 1.x speaks HTTP through httpx, of which httpx2 is the fork 2.x moved to: the same API here
    import httpx as httpx2  # type: ignore[no-redef]

from ..recovery.retry import parse_retry_after
from .mcp_errors import McpResultTooLarge
from .mcp_wire import Wire


class _OverCap(httpx2.StreamError):
    """Raised into the SDK's read of a body past the cap; the SDK answers the request with an error."""


class _CappedBody(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, limit: int, request_id: Any, wire: Wire) -> None:
        self.inner, self.limit, self.request_id, self.wire = inner, limit, request_id, wire

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.inner:
            seen += len(chunk)
            if seen > self.limit:
                what = f"an answer of more than {self.limit:,} bytes, over the cap"
                self.wire.fail(self.request_id, McpResultTooLarge(f"MCP server {self.wire.label!r} sent {what}"))
                raise _OverCap(what)
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class _CappedTransport(httpx2.AsyncBaseTransport):
    """Every response body counted as it streams in; past `limit` bytes the read fails (nothing more is held)."""

    def __init__(self, limit: int, wire: Wire) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.limit, self.wire = limit, wire

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        request_id = _request_id(request)
        if response.status_code == 429 and request_id is not None:
            header = response.headers.get("retry-after")
            self.wire.rate_limited[str(request_id)] = parse_retry_after(header) if header else None
        response.stream = _CappedBody(response.stream, self.limit, request_id, self.wire)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def _request_id(request: httpx2.Request) -> Any:
    try:
        body = json.loads(request.content or b"null")
    except (ValueError, httpx2.RequestNotRead):
        return None
    return body.get("id") if isinstance(body, dict) else None


@asynccontextmanager
async def http_transport(
    url: str, headers: dict[str, str] | None, max_bytes: int, wire: Wire
) -> AsyncIterator[tuple[Any, Any]]:
    client = httpx2.AsyncClient(
        headers=headers,
        timeout=httpx2.Timeout(30.0, read=300.0),  # the SDK's own defaults: a server may hold a stream open
        transport=_CappedTransport(max_bytes, wire),
    )
    if MAJOR == 1:  # no event-size cap there (the capped transport still bounds each body); a session-id getter too
        async with client, streamable_http_client(url, http_client=client) as streams:
            yield streams[0], streams[1]
        return
    async with client, streamable_http_client(url, http_client=client, max_sse_event_size=max_bytes) as streams:
        yield streams
