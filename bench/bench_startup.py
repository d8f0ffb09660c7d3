"""Process start to the first painted frame of the rose tutorial, in a real pseudo-terminal.

Run: uv run python bench/bench_startup.py [--repeat 5]
Starts `loopscope tutorial rose-pricing` on a pty (as a terminal would), reads the screen
output until the first frame shows the debugger's call-stack pane, and kills the process.
Warm: the first run is thrown away (it fills the page cache and writes bytecode). Target: <= 450 ms.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = b"Call stack"


def first_paint(command: list[str], timeout: float = 20.0) -> float:
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command, with a terminal the size of a laptop window
        os.environ.update(TERM="xterm-256color", COLUMNS="120", LINES="40")
        os.chdir(ROOT)
        os.execvp(command[0], command)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if MARKER in seen:
                    return time.perf_counter() - started
        raise TimeoutError(f"no first frame within {timeout}s; output began {seen[:200]!r}")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    loopscope = str(Path(sys.executable).parent / "loopscope")
    command = [loopscope, "tutorial", "rose-pricing"]
    first_paint(command)  # warm-up: page cache, bytecode
    times = [first_paint(command) for _ in range(args.repeat)]
    print(f"start to first frame of `loopscope tutorial rose-pricing`: best {min(times) * 1000:.0f} ms, "
          f"median {statistics.median(times) * 1000:.0f} ms over {args.repeat} warm runs (target <= 450 ms)")


if __name__ == "__main__":
    main()
