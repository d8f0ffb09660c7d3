"""An MCP server for tests (the SDK's MCPServer over stdio), with a tool for each way a server goes wrong.

Run as `python mcp_test_server.py [--marker TEXT] [--http PORT]`; the marker only makes its processes easy
to find in /proc. Its tools: search (vendor shapes), echo, fail (isError), limited (isError "429" twice,
then answers), hang (never answers), crash (exits mid-call). A server that breaks
the protocol itself is mcp_raw_server.py (the SDK keeps stdout for the protocol).
"""

from __future__ import annotations

import json
import os
import sys
import time

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("test-server")
state = {"limited": 0}

SHAPES = {
    "top": lambda pages: {"pages": pages},
    "data": lambda pages: {"code": 0, "data": {"pages": pages}},
    "envelope": lambda pages: {"result": {"content": [{"type": "text", "text": json.dumps({"pages": pages})}]}},
    "chat": lambda pages: {"choices": [{"message": {"role": "assistant", "content": json.dumps(pages)}}]},
    "other": lambda pages: {"items": pages, "total": len(pages)},
}


@server.tool()
def search(query: str, shape: str = "top") -> str:
    """Search; answers in the shape asked for (top, data, envelope, chat, other)."""
    pages = [{"title": f"about {query}", "url": "https://example.com/1"}]
    return json.dumps(SHAPES[shape](pages))


@server.tool()
def echo(text: str, times: int = 1) -> str:
    """Say the text back, `times` times."""
    return " ".join([text] * times)


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the reason."""
    raise ToolError(reason)


@server.tool()
def limited(query: str) -> str:
    """Says 429 Too Many Requests on the first two calls, then answers."""
    state["limited"] += 1
    if state["limited"] <= 2:
        raise ToolError("429 Too Many Requests: slow down")
    return f"results for {query}"


@server.tool()
def hang(query: str) -> str:
    """Never answers."""
    time.sleep(3600)
    return "too late"


@server.tool()
def crash(query: str) -> str:
    """Exits in the middle of the call."""
    sys.stderr.write("the test server fell over\n")
    sys.stderr.flush()
    os._exit(3)


if __name__ == "__main__":
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()
