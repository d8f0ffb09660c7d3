"""Process start to the first painted frame of the rose tutorial, in a real pseudo-terminal.

Run: uv run python bench/bench_startup.py [--repeat 5]
Starts `loopscope tutorial rose-pricing` on a pty (as a terminal would), reads the screen
output until the first frame shows the debugger's call-stack pane, and kills the process.
Two cases, one after the other, each after a thrown-away run that fills the page cache:
- warm start: bytecode cached, as a normal user's Python has it after the first run (the
  child runs with PYTHONDONTWRITEBYTECODE unset, so the warm-up run writes what is missing).
  Target: <= 450 ms.
- no bytecode: every module compiled from source on every start (PYTHONDONTWRITEBYTECODE=1 and
  an empty PYTHONPYCACHEPREFIX), as when the environment forbids writing bytecode and the
  install compiled none (`uv sync` without --compile-bytecode; pip compiles by default).
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = b"Call stack"


def first_paint(command: list[str], timeout: float = 20.0, environment: dict[str, str | None] | None = None) -> float:
    """Seconds from fork to the first frame on the pty; `environment` sets (None: removes) variables."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command, with a terminal the size of a laptop window
        os.environ.update(TERM="xterm-256color", COLUMNS="120", LINES="40")
        for name, value in (environment or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
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


def measure(command: list[str], repeat: int, environment: dict[str, str | None]) -> list[float]:
    first_paint(command, environment=environment)  # warm-up: page cache (and bytecode, when allowed)
    return [first_paint(command, environment=environment) for _ in range(repeat)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    loopscope = str(Path(sys.executable).parent / "loopscope")
    command = [loopscope, "tutorial", "rose-pricing"]
    with tempfile.TemporaryDirectory() as empty:
        cases = {
            "warm start (bytecode cached)": {"PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None},
            "no bytecode (all compiled at start)": {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": empty},
        }
        for case, environment in cases.items():
            times = measure(command, args.repeat, environment)
            target = " (target <= 450 ms)" if case.startswith("warm") else ""
            print(f"start to first frame of `loopscope tutorial rose-pricing`, {case}: best {min(times) * 1000:.0f} ms, "
                  f"median {statistics.median(times) * 1000:.0f} ms over {args.repeat} runs{target}")


if __name__ == "__main__":
    main()
