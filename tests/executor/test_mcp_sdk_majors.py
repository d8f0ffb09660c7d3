"""mcp_tools on either major of the MCP SDK: this environment's 2.x runs the other MCP tests; here, in a
subprocess with mcp 1.x in its place, a FastMCP server (how most published servers are written) is listed,
called, probed and answers an error, through the same client code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tests" / "helpers" / "mcp_one_check.py"

pytestmark = pytest.mark.slow  # installs mcp 1.x into a uv overlay (cached after the first time), starts a server


def test_the_client_code_works_with_mcp_1x_and_a_fastmcp_server():
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH: the mcp 1.x check runs in `uv run --with 'mcp<2'`")
    argv = [uv, "run", "--with", "mcp>=1.30,<2", "python", str(CHECK)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and ("Failed to fetch" in done.stderr or "No solution found" in done.stderr):
        pytest.skip(f"mcp 1.x could not be installed here: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith("mcp 1.")
    assert "OK: stdio FastMCP server on mcp 1.x" in done.stdout
    assert "OK: streamable HTTP FastMCP server on mcp 1.x" in done.stdout
