"""An MCP server for tests (the SDK's MCPServer over stdio), with a tool for each way a server goes wrong.

Run as `python mcp_test_server.py [--marker TEXT] [--http PORT] [--ignore-term]`; the marker only makes its processes easy
to find in /proc. Its tools: search (vendor shapes), echo, fail (isError), limited (isError "429" twice,
then answers), hang (never answers), crash (exits mid-call), spawn (leaves children). A server that breaks
the protocol itself is mcp_raw_server.py (the SDK keeps stdout for the protocol).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
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


# Children that outlive the server unless loopscope stops them: one stays in its group, one calls setsid,
# one is a daemon (setsid, then a fork whose parent exits: an orphan that is nobody's child of ours).
CHILDREN = {
    "stays": "import time; time.sleep(311)",
    "setsid": "import os, time; os.setsid(); time.sleep(311)",
    "daemon": "import os, time; os.setsid(); os.fork() and os._exit(0); time.sleep(311)",
}


@server.tool()
def spawn(marker: str) -> str:
    """Starts three sleeping children (`marker` in their command lines) and answers at once."""
    for name, source in CHILDREN.items():
        subprocess.Popen(
            [sys.executable, "-c", source, marker, name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return f"started {len(CHILDREN)}"


@server.tool()
def crash(query: str) -> str:
    """Exits in the middle of the call."""
    sys.stderr.write("the test server fell over\n")
    sys.stderr.flush()
    os._exit(3)


def refusing_calls(app, refusals: int):
    """The HTTP app behind a gateway that answers the first `refusals` tools/call POSTs with HTTP 429."""
    left = {"refusals": refusals}

    async def gateway(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        if b'"tools/call"' in body and left["refusals"] > 0:
            left["refusals"] -= 1
            headers = [(b"content-type", b"text/plain"), (b"retry-after", b"0")]
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            return await send({"type": "http.response.body", "body": b"Too Many Requests"})
        replayed = [{"type": "http.request", "body": body, "more_body": False}]

        async def again():
            return replayed.pop() if replayed else await receive()

        return await app(scope, again, send)

    return gateway


if __name__ == "__main__":
    if "--http" in sys.argv:  # --http PORT [--refuse N]: streamable HTTP on 127.0.0.1, N calls refused with 429
        import uvicorn

        port = int(sys.argv[sys.argv.index("--http") + 1])
        refusals = int(sys.argv[sys.argv.index("--refuse") + 1]) if "--refuse" in sys.argv else 0
        app = refusing_calls(server.streamable_http_app(json_response=True), refusals)
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    else:
        if "--ignore-term" in sys.argv:  # a server slow to stop: only SIGKILL ends it
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        server.run()
