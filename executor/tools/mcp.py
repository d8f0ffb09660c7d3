"""mcp_tools: an agent's tools from a Model Context Protocol server, listed on first use, called over JSON-RPC.

The official `mcp` SDK does the protocol (`pip install 'loopscope[mcp]'`); it is imported when a
toolset is first used, never by `import executor`. A replay answers from the recording instead: the
listing a trace's chain_start recorded (see offline_listings) and each call's recorded result
(tracer/replay/mcp_replay.py), so a recorded run needs no server.
"""

from __future__ import annotations

import contextvars
import importlib.util
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, overload

from .mcp_spec import ServerSpec, server_spec
from .tool import ErrorHandler, Tool

DEFAULT_TIMEOUT = 30.0  # seconds for one call
DEFAULT_STARTUP_TIMEOUT = 60.0  # seconds for a server to start and finish the handshake
DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024  # an answer over this is refused unread, not held in memory
Extract = Sequence[str] | Mapping[str, Sequence[str]] | None


# The servers a recording listed (chain_start's settings["mcp_servers"]): set by a replay around the
# agent's build, so that its mcp_tools answer from the recording and start no server.
_RECORDED: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "loopscope_mcp_recorded", default=None
)


@contextmanager
def offline_listings(servers: list[dict[str, Any]]) -> Iterator[None]:
    """Within this block, a toolset lists its tools from `servers` (as recorded) instead of asking a server.

    A toolset takes the recorded server of its own label, else the next one not yet taken, in
    order (a command written with an absolute path differs from machine to machine).
    """
    token = _RECORDED.set([dict(server) for server in servers])
    try:
        yield
    finally:
        _RECORDED.reset(token)


class McpToolset(Sequence[Tool]):
    """The tools of one MCP server, as a list of Tools: listed on first use, the connection kept until
    the last run using it ends or the process exits. `with mcp_tools(...) as tools:` keeps it open for
    the block (several runs, one server process) and closes it at the end."""

    def __init__(
        self,
        spec: ServerSpec,
        extract: Extract,
        timeout: float,
        max_result_bytes: int,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        **tool_options: Any,
    ) -> None:
        self.spec = spec
        self.server = spec.label
        self.extract = extract
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_result_bytes = max_result_bytes
        self.tool_options = tool_options
        self.listing: dict[str, Any] | None = None  # what chain_start records about the server
        self.connection: Any = None
        self._tools: list[Tool] | None = None

    def __repr__(self) -> str:
        listed = f"{len(self._tools)} tools" if self._tools is not None else "not listed yet"
        return f"McpToolset({self.server!r}, {listed})"

    @property
    def tools(self) -> list[Tool]:
        if self._tools is None:
            self._tools = self._list()
        return self._tools

    @overload
    def __getitem__(self, index: int) -> Tool: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Tool]: ...
    def __getitem__(self, index: int | slice) -> Tool | Sequence[Tool]:
        return self.tools[index]

    def __len__(self) -> int:
        return len(self.tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    def __enter__(self) -> McpToolset:
        self.tools  # noqa: B018 (listing now opens the connection, which the block keeps open)
        if self.connection is not None:
            self.connection.pinned = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection now (its server process is stopped); a later call would open a new one."""
        if self.connection is not None:
            self.connection.pinned = False
            self.connection.close()

    def live(self) -> Any:
        """The connection to the server (made now if the tools were listed from a recording)."""
        if self.connection is None:
            if importlib.util.find_spec("mcp") is None:  # a replay needs no SDK; talking to a server does
                raise ImportError("mcp_tools needs the MCP SDK to reach a server: pip install 'loopscope[mcp]'")
            # Late: the SDK (and the transports built on it) load only when a server is really used.
            from .mcp_connection import McpConnection

            self.connection = McpConnection(self.spec, self.timeout, self.max_result_bytes, self.startup_timeout)
        return self.connection

    def _list(self) -> list[Tool]:
        recorded = _RECORDED.get()
        listing = _take_recorded(recorded, self.server) if recorded is not None else None
        caller: Any
        if listing is not None:
            caller = _ConnectOnCall(self)  # a replay gives each tool its recorded answers; a fork may go live
        else:
            caller = self.live()
            listing = caller.list_tools()
        self.listing = listing
        return [self._tool(offered, caller) for offered in listing["tools"]]

    def _tool(self, offered: dict[str, Any], caller: Any) -> Tool:
        from .mcp_tool import McpTool  # late: see _list

        paths = self.extract.get(offered["name"], ()) if isinstance(self.extract, Mapping) else self.extract or ()
        tool = McpTool(offered, caller, timeout=self.timeout, extract_paths=paths, startup_timeout=self.startup_timeout,
                       **self.tool_options)  # fmt: skip
        tool.mcp_listing = self.listing  # type: ignore[attr-defined]
        return tool


class _ConnectOnCall:
    """The caller of a toolset listed from a recording: a replay gives its tools their recorded answers,
    and a call the recording cannot answer (a fork past its recording) opens the server then."""

    def __init__(self, toolset: McpToolset) -> None:
        self.toolset, self.label = toolset, toolset.server

    def start_call(self, tool: str, arguments: dict[str, Any], timeout: float) -> Any:
        return self.toolset.live().start_call(tool, arguments, timeout)

    def hold(self, run: Any) -> None:
        self.toolset.live().hold(run)


def _take_recorded(recorded: list[dict[str, Any]], label: str) -> dict[str, Any] | None:
    for index, server in enumerate(recorded):
        if server.get("server") == label:
            return recorded.pop(index)
    return recorded.pop(0) if recorded else None


def mcp_tools(
    server: Sequence[str] | str,
    *,
    extract: Extract = None,
    timeout: float = DEFAULT_TIMEOUT,
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    headers: Mapping[str, str] | None = None,
    handle_tool_error: ErrorHandler = True,
    retry_policy: Any = None,
) -> McpToolset:
    """The tools an MCP server offers, as loopscope Tools for the ReAct or the tool-calling agent.

    server: a command that starts it (`["python", "my_server.py"]`, spoken to over stdio) or an
        `http(s)://` URL (streamable HTTP). Nothing starts until the tools are first used.
    extract: JSONPath expressions tried in order on each answer (`["$.pages", "$.data.pages"]`), or a
        dict of them by tool name; the first that matches is what the agent is told (a match that is
        JSON text is decoded and probed again). Without it, the answer's text is the observation.
    timeout: seconds one call may take; past it the call fails with ToolTimeout (and the server is told).
    startup_timeout: seconds the server may take to start and finish the MCP handshake.
    max_result_bytes: an answer over this is refused (McpResultTooLarge) without being held in memory.
    env, cwd: for a command: environment variables added to the SDK's safe defaults, the folder to start in.
    headers: for a URL: HTTP headers sent with each request (an API key, say).
    handle_tool_error: as Tool's; True tells the agent about a failed call (isError, a crash, a timeout).
    retry_policy: as Tool's; a 429 from the server (or an isError that says so) is retried by it.
    """
    spec = server_spec(server, env, cwd, headers)
    for name, seconds in (("timeout", timeout), ("startup_timeout", startup_timeout)):
        if not 0 < seconds < float("inf"):
            raise ValueError(f"mcp_tools: {name} must be a positive number of seconds, got {seconds!r}")
    if not isinstance(max_result_bytes, int) or max_result_bytes < 1024:
        raise ValueError(
            f"mcp_tools: max_result_bytes must be a whole number of at least 1024, got {max_result_bytes!r}"
        )
    if extract is not None:
        from .mcp_extract import checked_paths  # late: the JSONPath library loads only when a toolset extracts

        extract = (
            {name: checked_paths(paths, f"mcp_tools extract[{name!r}]") for name, paths in extract.items()}
            if isinstance(extract, Mapping)
            else checked_paths(extract, "mcp_tools")
        )
    return McpToolset(spec, extract, timeout, max_result_bytes, startup_timeout, handle_tool_error=handle_tool_error,
                      retry_policy=retry_policy)  # fmt: skip
