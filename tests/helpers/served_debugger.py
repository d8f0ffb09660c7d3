"""`loopscope serve` in a subprocess on a free local port, stopped (with its debugger sessions) afterwards."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Iterator

from tests.helpers.paths import ROOT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(*args: str, timeout: float = 60.0) -> Iterator[tuple[int, subprocess.Popen]]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tracer.cli", "serve", *args, "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)  # its own group: the per-tab debuggers stop with it
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"loopscope serve did not come up: {process.stdout.read()}")
                time.sleep(0.2)
        yield port, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
