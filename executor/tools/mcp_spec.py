"""Where an MCP server is: a command to start (stdio) or a URL (streamable HTTP), and how it is shown and recorded."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ServerSpec:
    """Where a server is: a command to start (stdio) or a URL (streamable HTTP), and how it is shown."""

    label: str
    command: tuple[str, ...] | None = None
    url: str | None = None
    env: dict[str, str] | None = field(default=None, hash=False)
    cwd: str | None = None
    headers: dict[str, str] | None = field(default=None, hash=False)

    @property
    def transport(self) -> str:
        return "stdio" if self.command is not None else "streamable-http"


def server_spec(
    server: Sequence[str] | str,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> ServerSpec:
    """A ServerSpec from what mcp_tools was given; a ValueError in one line for anything else."""
    if isinstance(server, str):
        if server.startswith(("http://", "https://")):
            return ServerSpec(label=server, url=server, headers=dict(headers) if headers else None)
        raise ValueError(
            f"mcp_tools: give the server as a command list like ['python', 'my_server.py'] or an http(s):// URL, "
            f"got {server!r}"
        )
    command = list(server) if isinstance(server, Sequence) else None
    if not command or not all(isinstance(part, str) and part for part in command):
        raise ValueError(f"mcp_tools: the server command must be a non-empty list of strings, got {server!r}")
    return ServerSpec(label=command_label(command), command=tuple(command), env=dict(env) if env else None, cwd=cwd)


def command_label(command: Sequence[str]) -> str:
    """How a command is shown and recorded: this interpreter's path as `python`, so a trace reads the same anywhere."""
    shown = ["python" if part == sys.executable else part for part in command]
    return shlex.join(shown)
