"""Events of a tool that runs on a Model Context Protocol server: the JSON-RPC request, its raw answer, the probe of its shape."""

from __future__ import annotations

from typing import Any, Literal

from .base import EventBase, describe_fields


class McpRequestEvent(EventBase):
    """An MCP tool sent its server a JSON-RPC request and waits for the answer (between tool_start and tool_end)."""

    kind: Literal["mcp_request"] = "mcp_request"
    server: str
    """The server as mcp_tools was given it: its command ("python my_server.py") or its URL."""
    method: str
    """The MCP method, e.g. "tools/call"."""
    request_id: int | str
    """The JSON-RPC id of the request; its answer carries the same id."""
    tool: str
    """The tool's name on the server."""
    arguments: dict[str, Any]
    """The arguments sent, as JSON."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class McpResultEvent(EventBase):
    """The server answered a request: the result's content blocks exactly as they came, and whether it is an error."""

    kind: Literal["mcp_result"] = "mcp_result"
    server: str
    """The server that answered."""
    request_id: int | str
    """The JSON-RPC id of the request this answers."""
    content: list[dict[str, Any]]
    """The result's content blocks as the server sent them ({"type": "text", "text": ...}, images, resources)."""
    structured_content: dict[str, Any] | None = None
    """The result's structuredContent, when the tool declares an output schema."""
    is_error: bool
    """The result's isError: the tool ran and failed, and says why in `content` (a JSON-RPC error has no result)."""
    size: int
    """Bytes of the result as received (answers over mcp_tools' max_result_bytes never get here)."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class McpExtractEvent(EventBase):
    """The tool's answer was probed with JSONPath expressions, in order, for the part the agent is told."""

    kind: Literal["mcp_extract"] = "mcp_extract"
    tool: str
    """The tool whose answer was probed."""
    paths: list[str]
    """Every expression tried, in order (the first that matched ends the list)."""
    matched: str | None
    """The expression that matched, with "→" before a path found inside a match that was JSON text; None on a miss."""
    decoded: bool
    """True when a match was JSON text and was decoded again."""
    shape: str | None = None
    """On a miss: an outline of what the answer looked like (keys and value types, cut short)."""
    matches: int | None = None
    """How many nodes the matching expression found when more than one (the observation is then all of
    them, a JSON list in document order); None for one node or a miss (and in traces made before it)."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


describe_fields(McpRequestEvent, McpResultEvent, McpExtractEvent)
