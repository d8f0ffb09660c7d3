"""MCP servers for tests: their commands (with a marker to find their processes by) and a look in /proc for survivors."""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

HELPERS = Path(__file__).resolve().parent
SDK_SERVER = HELPERS / "mcp_test_server.py"
RAW_SERVER = HELPERS / "mcp_raw_server.py"


def server_command(script: Path = SDK_SERVER) -> tuple[list[str], str]:
    """(a command that starts `script`, the marker its process carries in its command line)."""
    marker = f"mcp-test-{uuid.uuid4().hex[:10]}"
    return [sys.executable, str(script), "--marker", marker], marker


def processes_with(marker: str) -> list[int]:
    """The pids of live (not zombie) processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            status = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        if marker.encode() in cmdline and status.rpartition(")")[2].split()[0] != "Z":
            found.append(int(entry.name))
    return found


def processes_in(folder: Path) -> list[int]:
    """The pids of live processes started from `folder` (their working directory) or naming it: a test's own,
    not another test's running beside it under pytest-xdist with a server of the same name."""
    folder = folder.resolve()
    found = []
    for pid in processes_with(""):
        try:
            cwd = Path(f"/proc/{pid}/cwd").resolve()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile, or not ours to look at
        if cwd == folder or str(folder).encode() in cmdline:
            found.append(pid)
    return found


def wait_until(condition, seconds: float = 15.0) -> bool:
    """Poll `condition` until it holds or `seconds` pass (a bound on waiting, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())
