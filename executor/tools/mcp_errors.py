"""What goes wrong with an MCP server, each as a ToolError the agent can be told about in one line."""

from __future__ import annotations

from .tool import ToolError, ToolTimeout


class McpServerError(ToolError):
    """The server could not be started or reached, or broke the protocol (the tool never answered)."""


class McpConnectionLost(McpServerError, ConnectionError):
    """The server went away during a request (it exited or crashed). A ConnectionError, so a
    RetryPolicy tries again on a new connection (a new server process)."""


class McpProtocolError(McpServerError):
    """The server wrote something that is not JSON-RPC, or answered with a JSON-RPC error."""


class McpResultTooLarge(McpServerError):
    """The answer was over mcp_tools' max_result_bytes; it was skipped, never held in memory."""


class McpToolError(ToolError):
    """The tool ran and answered with isError: true; its message is the text the server gave."""


class McpRateLimited(McpToolError):
    """The server (or the vendor behind it) said "too many requests": HTTP 429. `status_code` is 429,
    so a RetryPolicy retries it with its growing wait (and `retry_after`, when the server gave one)."""

    status_code = 429

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class McpExtractError(McpToolError):
    """None of the JSONPath expressions found anything in the answer; the message lists what was tried."""


# By class name: a replay raises a recorded failure again as the same class (tracer/replay/mcp_replay.py).
MCP_ERRORS: dict[str, type[ToolError]] = {
    cls.__name__: cls
    for cls in (
        McpServerError,
        McpConnectionLost,
        McpProtocolError,
        McpResultTooLarge,
        McpToolError,
        McpRateLimited,
        McpExtractError,
        ToolTimeout,
    )
}
