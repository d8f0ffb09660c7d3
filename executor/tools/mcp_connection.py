"""One MCP server's connection: opened on first use on a loop of its own, closed when the last run using it ends.

The SDK is asynchronous and its sessions belong to the event loop that opened them, while the loop's
tools are called from the executor's thread, its worker threads (parallel calls) or a user's own
event loop (ainvoke). So every connection lives on one background loop, and a call is handed to it:
the caller gets Futures back, which it waits on (or awaits) as suits its driver.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import signal
import sys
import threading
import time
import weakref
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from .mcp_errors import McpConnectionLost, McpProtocolError, McpRateLimited, McpServerError
from .mcp_sdk import CONNECTION_CLOSED, REQUEST_TIMEOUT, SdkError, error_code, opened_client
from .mcp_spec import ServerSpec
from .mcp_stdio import LIVE_SERVERS, ServerProcess, kill_live_servers, stdio_transport
from .mcp_wire import CURRENT_CALL, CallSlot, McpAnswer, Wire, observed
from .tool import ToolTimeout

MAX_PAGES = 100  # tools/list pages followed; a server that pages forever cannot hang the build


@dataclass
class _Pending:
    sent: Future[int | str]
    answer: Future[McpAnswer]


class _Session:
    """One open connection: the task that holds the SDK's Client open until `closing` is set."""

    def __init__(self, label: str) -> None:
        self.opened: Future[tuple[Any, Wire, ServerProcess]] = Future()
        self.closing = asyncio.Event()  # bound to the loop on first wait (Python 3.10+)
        self.owner: Future[None] | None = None
        self.state = ServerProcess(label)


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
_CONNECTIONS: weakref.WeakSet[McpConnection] = weakref.WeakSet()


def mcp_loop() -> asyncio.AbstractEventLoop:
    """The loop every MCP connection lives on (a daemon thread: it never keeps the process alive)."""
    global _loop
    with _loop_lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="loopscope-mcp", daemon=True).start()
            _loop = loop
        return _loop


class McpConnection:
    """A server's session, opened when first needed and reopened after the server went away."""

    def __init__(self, spec: ServerSpec, timeout: float, max_bytes: int, startup_timeout: float) -> None:
        self.spec, self.label = spec, spec.label
        self.timeout, self.max_bytes, self.startup_timeout = timeout, max_bytes, startup_timeout
        self.pinned = False  # inside `with mcp_tools(...)`: open until the block ends, whatever runs end
        self._session: _Session | None = None
        self._holders = 0
        self._lock = threading.Lock()
        _CONNECTIONS.add(self)

    # -- what the tools ask for ----------------------------------------------------------------------
    def list_tools(self) -> dict[str, Any]:
        """tools/list (every page): the server and the tools it offers, as chain_start's settings record them."""
        future = asyncio.run_coroutine_threadsafe(self._list(), mcp_loop())
        try:
            return future.result(self.startup_timeout + self.timeout)  # a handshake, then the listing
        except TimeoutError:
            future.cancel()
            self.close(wait=False)
            raise McpServerError(
                f"MCP server {self.label!r} did not list its tools within {self.startup_timeout + self.timeout:g} seconds"
            ) from None

    def start_call(self, tool: str, arguments: dict[str, Any], timeout: float) -> _Pending:
        slot = CallSlot("tools/call")
        answer = asyncio.run_coroutine_threadsafe(self._call(slot, tool, arguments, timeout), mcp_loop())
        return _Pending(slot.sent, answer)

    def hold(self, run: Any) -> None:
        """Keep the connection open for `run`; it closes when the last run holding it has ended."""
        key = ("mcp", id(self))
        if key in run.run_state:
            return
        run.run_state[key] = True
        with self._lock:
            self._holders += 1
        run.at_end(self.release)

    def release(self) -> None:
        with self._lock:
            self._holders -= 1
            last = self._holders <= 0 and not self.pinned
        if last:
            self.close(wait=False)

    def close(self, wait: bool = True) -> None:
        """Close the session (the server process is stopped); the next call opens a new one."""
        with self._lock:
            session, self._session = self._session, None
        if session is None:
            return
        mcp_loop().call_soon_threadsafe(session.closing.set)
        if wait and session.owner is not None:
            with contextlib.suppress(Exception):  # a session that failed to open or closed badly is closed all the same
                session.owner.result(5.0)

    # -- on the MCP loop ---------------------------------------------------------------------------------
    async def _open(self) -> tuple[Any, Wire, ServerProcess]:
        with self._lock:
            session = self._session
            if session is None:
                session = self._session = _Session(self.label)
                session.owner = asyncio.run_coroutine_threadsafe(self._own(session), mcp_loop())
        try:
            return await asyncio.wait_for(asyncio.wrap_future(session.opened), self.startup_timeout)
        except TimeoutError:
            self._drop(session)
            stray = f"; it wrote {session_stray(session)}" if session_stray(session) else ""
            raise McpServerError(
                f"MCP server {self.label!r} did not finish the MCP handshake within {self.startup_timeout:g} seconds{stray}"
            ) from None

    async def _own(self, session: _Session) -> None:
        wire = Wire(self.label)
        session.wire = wire  # type: ignore[attr-defined]
        try:
            # every tools/list goes to the server (and into the trace)
            async with opened_client(observed(self._transport(wire, session.state), wire), _version()) as client:
                session.opened.set_result((client, wire, session.state))
                await session.closing.wait()
        except BaseException as error:
            if not session.opened.done():
                session.opened.set_exception(self._startup_error(first_leaf(error), session))
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            self._drop(session)

    def _transport(self, wire: Wire, state: ServerProcess) -> AbstractAsyncContextManager[Any]:
        spec = self.spec
        if spec.command is not None:
            return stdio_transport(list(spec.command), spec.env, spec.cwd, self.max_bytes, wire, state)
        assert spec.url is not None
        from .mcp_http import http_transport  # late: only a URL's server needs the HTTP client

        return http_transport(spec.url, spec.headers, self.max_bytes, wire)

    async def _list(self) -> dict[str, Any]:
        client, _, _ = await self._open()
        slot = CallSlot("tools/list")
        CURRENT_CALL.set(slot)
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        try:
            for _ in range(MAX_PAGES):
                page = await client.list_tools(cursor=cursor)
                tools += [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in page.tools]
                cursor = page.next_cursor
                if not cursor:
                    break
        except SdkError as error:
            raise McpProtocolError(
                f"MCP server {self.label!r} answered tools/list with JSON-RPC error {error_code(error)}: "
                f"{first_line(error)}"
            ) from None
        info = client.server_info
        return {
            "server": self.label,
            "transport": self.spec.transport,
            "name": info.name if info else None,
            "version": info.version if info else None,
            "protocol_version": client.protocol_version,
            "method": "tools/list",
            "request_id": slot.request_id,
            "tools": [offered(tool) for tool in tools],
        }

    async def _call(self, slot: CallSlot, tool: str, arguments: dict[str, Any], timeout: float) -> McpAnswer:
        try:
            client, wire, state = await self._open()
            CURRENT_CALL.set(slot)
            try:
                result = await client.call_tool(tool, arguments, read_timeout_seconds=timeout)
            except SdkError as error:
                raise self._explain(slot, error, wire, state, timeout) from None
            except Exception as error:  # the SDK refused the answer (not a CallToolResult, an output-schema miss)
                raise slot.failure or McpProtocolError(
                    f"MCP server {self.label!r} answered tools/call #{slot.request_id} with a result "
                    f"loopscope cannot use: {type(error).__name__}: {first_line(error)}"
                ) from None
        except BaseException as error:
            if not slot.sent.done():
                slot.sent.set_exception(error if isinstance(error, Exception) else McpConnectionLost("call cancelled"))
            raise
        raw = slot.raw if slot.raw is not None else result.model_dump(by_alias=True, exclude_none=True, mode="json")
        content = raw.get("content")
        structured = raw.get("structuredContent")
        return McpAnswer(
            content=[block for block in content if isinstance(block, dict)] if isinstance(content, list) else [],
            structured=structured if isinstance(structured, dict) else None,
            is_error=raw.get("isError") is True,
            size=len(json.dumps(raw, ensure_ascii=False).encode()),
        )

    def _explain(self, slot: CallSlot, error: SdkError, wire: Wire, state: ServerProcess, timeout: float) -> Exception:
        """The one-line error a failed tools/call becomes."""
        where = f"tools/call #{slot.request_id}" if slot.request_id is not None else "tools/call"
        if slot.failure is not None:
            return slot.failure
        if str(slot.request_id) in wire.rate_limited:
            return McpRateLimited(
                f"MCP server {self.label!r} answered {where} with HTTP 429 Too Many Requests",
                retry_after=wire.rate_limited[str(slot.request_id)],
            )
        if error_code(error) == CONNECTION_CLOSED:
            self.close(wait=False)
            return McpConnectionLost(f"MCP server {self.label!r} went away during {where}{state.exit_note()}")
        if error_code(error) == REQUEST_TIMEOUT:
            return ToolTimeout(
                f"MCP server {self.label!r} did not answer {where} within {timeout:g} seconds; the request was cancelled"
            )
        return McpProtocolError(
            f"MCP server {self.label!r} answered {where} with JSON-RPC error {error_code(error)}: {first_line(error)}"
        )

    def _startup_error(self, error: BaseException, session: _Session) -> Exception:
        if isinstance(error, McpServerError):
            return error
        stray = session_stray(session)
        said = f"; it wrote {stray}" if stray else ""
        if isinstance(error, SdkError) and error_code(error) == CONNECTION_CLOSED:
            return McpServerError(
                f"MCP server {self.label!r} exited before the MCP handshake{session.state.exit_note()}{said}"
            )
        verb = "be reached" if self.spec.url else "start"
        return McpServerError(
            f"MCP server {self.label!r} could not {verb}: {type(error).__name__}: {first_line(error)}{said}"
        )

    def _drop(self, session: _Session) -> None:
        with self._lock:
            if self._session is session:
                self._session = None
        session.closing.set()


def offered(tool: dict[str, Any]) -> dict[str, Any]:
    """A listed tool as chain_start records it: its name, description and JSON schemas."""
    record = {
        "name": str(tool.get("name", "")),
        "description": str(tool.get("description") or ""),
        "input_schema": tool.get("inputSchema") or {"type": "object"},
    }
    if isinstance(tool.get("outputSchema"), dict):
        record["output_schema"] = tool["outputSchema"]
    return record


def _version() -> str:
    # Read, not imported: `from executor import __version__` here would close an import cycle.
    return str(getattr(sys.modules.get("executor"), "__version__", "0"))


def session_stray(session: _Session) -> str:
    wire = getattr(session, "wire", None)
    return "; ".join(wire.stray[:2]) if wire is not None and wire.stray else ""


def first_leaf(error: BaseException) -> BaseException:
    """The first exception inside (nested) exception groups: the task groups of anyio wrap what failed."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:300] if lines else type(error).__name__


@atexit.register
def close_all_servers() -> None:
    """At exit (Ctrl-C included): close every connection, then stop any server process still running
    and whatever the servers left. A second Ctrl-C meanwhile hurries it (what is left is killed at once)
    instead of ending it with a traceback ("Exception ignored in atexit callback")."""
    hurried = threading.Event()
    with contextlib.suppress(ValueError):  # not the main thread: its Ctrl-C is not ours to take
        signal.signal(signal.SIGINT, lambda *_: hurried.set())
    for connection in list(_CONNECTIONS):
        connection.close(wait=False)
    deadline = time.monotonic() + 0.5  # a server whose stdin closed usually exits at once
    while LIVE_SERVERS and time.monotonic() < deadline and not hurried.is_set():
        time.sleep(0.02)
    kill_live_servers(hurry=hurried.is_set)
