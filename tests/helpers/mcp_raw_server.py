"""A hand-written MCP server (legacy initialize handshake, JSON-RPC by hand) that can break the protocol on purpose.

The SDK's own servers keep stdout for the protocol (a print goes to stderr), so a server that writes
garbage or a 100 MB line has to be written without it. Tools: ok (answers), garbage (a line that is
not JSON-RPC, then nothing), truncated (half a JSON object with the request's id), huge (an answer of
`megabytes` MB with the request's id). Run as `python mcp_raw_server.py [--marker TEXT]`.
"""

from __future__ import annotations

import json
import os
import sys

TOOLS = [
    {"name": name, "description": f"the {name} tool", "inputSchema": {"type": "object", "properties": props}}
    for name, props in (
        ("ok", {"text": {"type": "string"}}),
        ("garbage", {"text": {"type": "string"}}),
        ("truncated", {"text": {"type": "string"}}),
        ("huge", {"megabytes": {"type": "integer"}}),
    )
]


def send(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


def reply(request_id: object, result: dict) -> None:
    send(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode() + b"\n")


def call(request_id: object, name: str, arguments: dict) -> None:
    if name == "garbage":
        send(b"<html>502 Bad Gateway</html>\n")  # and never a real answer
    elif name == "truncated":
        send(b'{"jsonrpc": "2.0", "id": ' + json.dumps(request_id).encode() + b', "result": {"content": [\n')
    elif name == "huge":
        send(
            b'{"jsonrpc":"2.0","id":'
            + json.dumps(request_id).encode()
            + b',"result":{"content":[{"type":"text","text":"'
        )
        chunk = b"x" * (1024 * 1024)
        for _ in range(int(arguments.get("megabytes", 1))):
            send(chunk)
        send(b'"}],"isError":false}}\n')
    else:
        reply(request_id, {"content": [{"type": "text", "text": f"ok: {arguments.get('text', '')}"}], "isError": False})


def main() -> None:
    for line in sys.stdin.buffer:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification (initialized, cancelled)
        if method == "initialize":
            reply(request_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                               "serverInfo": {"name": "raw-server", "version": "0.1"}})  # fmt: skip
        elif method == "tools/list":
            reply(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            call(request_id, message["params"]["name"], message["params"].get("arguments") or {})
        else:  # server/discover and the rest: unknown, so the client falls back to initialize
            error = {"code": -32601, "message": f"Method not found: {method}"}
            send(json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode() + b"\n")


if __name__ == "__main__":
    main()
