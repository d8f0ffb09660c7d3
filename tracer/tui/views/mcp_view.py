"""What the debugger says about MCP: the servers a run listed, each request and its raw answer, the probe of its shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.text import Text

from executor.events import EventBase

from ...i18n import say
from .clipped_text import clipped, first_line

MCP_STYLE = "bold bright_blue"
TOOL_KINDS = ("agent_action", "tool_start", "tool_end", "tool_error")  # the rows the timeline marks as MCP


def mcp_tool_names(first: EventBase | Any) -> frozenset[str]:
    """The tools a run got from MCP servers, from its chain_start (empty for any other run)."""
    settings = getattr(first, "settings", None) if getattr(first, "kind", None) == "chain_start" else None
    servers = settings.get("mcp_servers") if isinstance(settings, dict) else None
    if not isinstance(servers, list):
        return frozenset()
    return frozenset(
        str(tool.get("name"))
        for server in servers
        if isinstance(server, dict) and isinstance(server.get("tools"), list)
        for tool in server["tools"]
        if isinstance(tool, dict)
    )


def _words(lang: str) -> Callable[..., str]:
    """The catalogue's MCP words in `lang`, as a function of a short key and its arguments."""

    def words(key: str, **args: Any) -> str:
        return say(f"panes.mcp.{key}", lang, **args)

    return words


def mcp_summary(event: Any, lang: str = "en") -> str:
    """The timeline's few words for an MCP event."""
    words = _words(lang)
    if event.kind == "mcp_request":
        arguments = json.dumps(event.arguments, ensure_ascii=False)
        return f"→ {event.method} #{event.request_id} {event.tool}({first_line(arguments, 80)}) · {event.server}"
    if event.kind == "mcp_result":
        text = next((str(b.get("text", "")) for b in event.content if b.get("type") == "text"), "")
        error = "isError " if event.is_error else ""
        blocks = words("blocks", error=error, n=len(event.content), size=event.size, text=first_line(text))
        return f"← #{event.request_id} {blocks}"
    if event.matched is None:  # mcp_extract
        return words("no_match", n=len(event.paths), shape=event.shape)
    misses = len(event.paths) - 1
    after = words("miss" if misses == 1 else "misses", n=misses) if misses else ""
    return words("matched", matched=event.matched) + after


def mcp_detail(event: Any, lang: str = "en") -> Text | None:
    """The Detail pane's MCP block for an event, or None when it has nothing to do with MCP."""
    words = _words(lang)
    if event.kind == "chain_start":
        servers = event.settings.get("mcp_servers") if isinstance(event.settings, dict) else None
        return _servers(servers, words) if isinstance(servers, list) and servers else None
    if event.kind == "mcp_request":
        return _heading(
            words("request", id=event.request_id, method=event.method, tool=event.tool, server=event.server)
        )
    if event.kind == "mcp_result":
        error = str(event.is_error).lower()
        text = _heading(words("answer", id=event.request_id, error=error, n=len(event.content), size=event.size))
        for number, block in enumerate(event.content, start=1):
            text.append(words("block", n=number, kind=block.get("type", "?")), style="bold")
            body = block.get("text") if block.get("type") == "text" else json.dumps(block, ensure_ascii=False)
            text.append_text(clipped(_pretty(str(body)), limit=4000))
            text.append("\n")
        return text
    if event.kind == "mcp_extract":
        text = _heading(words("probe"))
        for path in event.paths:
            hit = event.matched is not None and event.matched.split(" → ")[0] == path
            text.append(f"  {'✓' if hit else '✗'} ", style="bold green" if hit else "bold red")
            text.append_text(clipped(event.matched if hit else path, limit=200))
            text.append("\n")
        if event.matched is None:
            text.append(words("looked"), style="bold")
            text.append_text(clipped(str(event.shape), limit=400))
            text.append("\n")
        return text
    return None


def _servers(servers: list[Any], words: Callable[..., str]) -> Text:
    text = _heading(words("servers"))
    for server in servers:
        if not isinstance(server, dict):
            continue
        names = ", ".join(str(tool.get("name")) for tool in server.get("tools", []) if isinstance(tool, dict))
        text.append_text(
            clipped(
                words(
                    "server",
                    server=server.get("server"),
                    transport=server.get("transport"),
                    name=server.get("name"),
                    version=server.get("protocol_version"),
                    id=server.get("request_id"),
                    names=names,
                ),
                limit=600,
            )
        )
    return text


def _heading(line: str) -> Text:
    text = Text("MCP  ", style=MCP_STYLE)
    text.append_text(clipped(line + "\n", limit=600))
    return text


def _pretty(body: str) -> str:
    """JSON text indented, so a vendor's nesting can be read; anything else as it is."""
    if body.lstrip()[:1] not in ("{", "["):
        return body
    try:
        return json.dumps(json.loads(body), ensure_ascii=False, indent=2)
    except ValueError:
        return body
