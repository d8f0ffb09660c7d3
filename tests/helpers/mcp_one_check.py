"""Run under mcp 1.x (`uv run --with 'mcp<2'`): mcp_tools against a FastMCP server, as a 1.x project writes one."""

import importlib.metadata as m
import json
import pathlib
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

from executor import AgentExecutor, ScriptedModel, create_react_agent, mcp_tools
from executor.tools import mcp_sdk

print("mcp", m.version("mcp"))
assert mcp_sdk.MAJOR == 1, mcp_sdk.MAJOR
server = pathlib.Path(tempfile.mkdtemp()) / "fast.py"
server.write_text(
    textwrap.dedent('''
    import json
    from mcp.server.fastmcp import FastMCP
    app = FastMCP("shops")
    @app.tool()
    def shops(city: str) -> str:
        """Florists in a city."""
        return json.dumps({"data": {"results": [{"name": "Rose House"}, {"name": "Tulip Hall"}]}})
    @app.tool()
    def fail(reason: str) -> str:
        """Always fails."""
        raise ValueError(reason)
    app.run()
''')
)
tools = mcp_tools([sys.executable, str(server)], extract={"shops": ["$.data.results[*].name"]})
model = ScriptedModel(
    [
        ' Look.\nAction: shops\nAction Input: {"city": "Paris"}',
        ' Try.\nAction: fail\nAction Input: {"reason": "closed"}',
        " Done.\nFinal Answer: 2",
    ]
)
events = list(AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "florists?"}))
kinds = [e.kind for e in events]
start = events[0]
print(
    "server",
    start.settings["mcp_servers"][0]["name"],
    start.settings["mcp_servers"][0]["protocol_version"],
    [t["name"] for t in start.settings["mcp_servers"][0]["tools"]],
)
ends = [e for e in events if e.kind in ("tool_end", "tool_error")]
print([(e.kind, getattr(e, "observation", None)) for e in ends])
assert json.loads(ends[0].observation) == ["Rose House", "Tulip Hall"]
assert "closed" in ends[1].observation
assert kinds[-1] == "chain_end" and "mcp_request" in kinds and "mcp_result" in kinds
print("OK: stdio FastMCP server on mcp 1.x: tools/list, tools/call, extract, an isError answer")

# The streamable HTTP transport (1.x: httpx, three streams) against FastMCP's own HTTP server.
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
http_server = server.with_name("fast_http.py")
http_server.write_text(
    textwrap.dedent(f"""
    from mcp.server.fastmcp import FastMCP
    app = FastMCP("shops", host="127.0.0.1", port={port})
    @app.tool()
    def echo(text: str, times: int = 1) -> str:
        \"\"\"Echo.\"\"\"
        return " ".join([text] * times)
    app.run(transport="streamable-http")
""")
)
process = subprocess.Popen([sys.executable, str(http_server)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    tools = mcp_tools(f"http://127.0.0.1:{port}/mcp")
    model = ScriptedModel(
        [' Echo.\nAction: echo\nAction Input: {"text": "rose", "times": 2}', " Done.\nFinal Answer: x"]
    )
    events = list(AgentExecutor(create_react_agent(model, tools), tools).iter_events({"input": "echo"}))
    assert next(e for e in events if e.kind == "tool_end").observation == "rose rose", events
    assert events[-1].kind == "chain_end"
    print("OK: streamable HTTP FastMCP server on mcp 1.x")
finally:
    process.terminate()
    process.wait(10)
