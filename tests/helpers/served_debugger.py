"""`loopscope serve` in a subprocess on a free local port, stopped (with its debugger sessions) afterwards."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

from tests.helpers.paths import ROOT


@dataclasses.dataclass(frozen=True)
class ServedDebugger:
    """A running `loopscope serve`: the address its banner printed (token included), and its process."""

    port: int
    token: str
    banner: str
    process: subprocess.Popen

    @property
    def page_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def websocket_url(self, width: int = 160, height: int = 45) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{self.token}?width={width}&height={height}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(*args: str, timeout: float = 60.0) -> Iterator[ServedDebugger]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tracer.cli", "serve", *args, "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )  # its own group: the per-tab debuggers stop with it
    try:
        banner = process.stdout.readline()  # printed before the server starts, token and all
        found = re.search(rf"http://127\.0\.0\.1:{port}/\?token=([\w-]+)", banner)
        if found is None:
            raise AssertionError(f"loopscope serve printed no address with a token: {banner + process.stdout.read()}")
        server = ServedDebugger(port, found.group(1), banner, process)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(server.page_url, timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"loopscope serve did not come up: {process.stdout.read()}") from None
                time.sleep(0.2)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
