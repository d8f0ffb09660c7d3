"""The MCP SDK's client side on either major: 2.x's Client, or 1.x's ClientSession (projects whose servers use FastMCP).

What differs, and is bridged here: 2.x moved the types into the `mcp_types` package, renamed McpError to
MCPError (with `.code`; 1.x keeps it in `.error.code`), replaced ClientSession + initialize() with Client,
takes timeouts as seconds (1.x: timedelta), names a tools/list page's cursor `next_cursor` (1.x: nextCursor),
carries a bare JSON-RPC message in SessionMessage (1.x: wrapped in a JSONRPCMessage root model), and its
HTTP transport takes httpx2 and a max event size and yields two streams (1.x: httpx, three).
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp.shared.message import SessionMessage

try:
    import mcp_types as types
    from mcp import Client
    from mcp.shared.exceptions import MCPError as SdkError

    MAJOR = 2
except ImportError:  # mcp 1.x
    import mcp.types as types  # type: ignore[no-redef]
    from mcp import ClientSession
    from mcp.shared.exceptions import McpError as SdkError  # type: ignore[attr-defined,no-redef]

    MAJOR = 1

CONNECTION_CLOSED = types.CONNECTION_CLOSED
REQUEST_TIMEOUT = getattr(types, "REQUEST_TIMEOUT", 408)  # 1.x times a request out with HTTP's 408
PARSE_ERROR = types.PARSE_ERROR

__all__ = ["MAJOR", "SdkError", "SessionMessage", "error_code", "error_reply", "opened_client", "parsed_message"]


def error_code(error: Exception) -> int | None:
    """The JSON-RPC error code an SDK error carries."""
    code = getattr(error, "code", None)
    return code if code is not None else getattr(getattr(error, "error", None), "code", None)


def parsed_message(line: bytes) -> SessionMessage:
    """One line of a server's stdout as the SDK's session reads it; ValueError when it is no JSON-RPC."""
    if MAJOR == 2:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    return SessionMessage(types.JSONRPCMessage.model_validate_json(line))  # type: ignore[attr-defined]


def error_reply(request_id: Any, what: str) -> SessionMessage:
    """A JSON-RPC parse error answering `request_id`, as the session expects it."""
    reply = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=PARSE_ERROR, message=what))
    return SessionMessage(reply if MAJOR == 2 else types.JSONRPCMessage(reply))  # type: ignore[operator]


@dataclass
class _Page:
    tools: list[Any]
    next_cursor: str | None


class _SessionClient:
    """1.x's ClientSession, initialised, answering as 2.x's Client does for what loopscope asks of it."""

    def __init__(self, session: Any, initialized: Any) -> None:
        self.session = session
        self.server_info = initialized.serverInfo
        self.protocol_version = initialized.protocolVersion

    async def list_tools(self, cursor: str | None = None) -> _Page:
        page = await self.session.list_tools(cursor=cursor)
        return _Page(list(page.tools), page.nextCursor)

    async def call_tool(self, name: str, arguments: dict[str, Any], read_timeout_seconds: float) -> Any:
        timeout = datetime.timedelta(seconds=read_timeout_seconds)
        return await self.session.call_tool(name, arguments, read_timeout_seconds=timeout)


@asynccontextmanager
async def opened_client(transport: AbstractAsyncContextManager[Any], version: str) -> AsyncIterator[Any]:
    """A client over `transport` (streams), its handshake done; every tools/list goes to the server."""
    info = types.Implementation(name="loopscope", version=version)
    if MAJOR == 2:
        async with Client(transport, client_info=info, cache=None) as client:
            yield client
        return
    async with transport as (read, write), ClientSession(read, write, client_info=info) as session:
        yield _SessionClient(session, await session.initialize())
