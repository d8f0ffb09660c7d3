"""Process start to the first painted frame of the rose tutorial, in a real pseudo-terminal.

Run: uv run python bench/bench_startup.py [--repeat 5]
Another checkout's code through the same bench: `git archive main | tar -x -C /tmp/main`, then
`PYTHONPATH=/tmp/main uv run python bench/bench_startup.py` (the child imports that tree first).
Starts `loopscope tutorial rose-pricing` on a pty (as a terminal would), reads the screen output
until the first whole frame is on it (the call-stack pane's title and its current frame, the
footer's keys, and the source pane scrolled to the event's line), and kills the process. Only
"Call stack" was waited for before: the first stop's narration says "the Call stack pane", so a
partial frame drawing the narration ended the wait before the pane itself was drawn.
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
import re
import select
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the first whole frame has drawn, each as its bytes on the terminal (between colour codes):
# the call-stack pane's title, its row for the event's own frame, and a key of the footer.
MARKERS = (b" Call stack \x1b[", "← this event".encode(), b"scroll the pane")
# The source pane's title names the event's line; the pane must show that line, marked ▶.
SOURCE_TITLE = re.compile(rb"agent_executor\.py:(\d+) ")
CODES = rb"(?:\x1b\[[0-9;]*m| )*"


def whole_frame(seen: bytes) -> bool:
    """Whether the output so far has drawn the first whole frame (see MARKERS and SOURCE_TITLE)."""
    if not all(marker in seen for marker in MARKERS):
        return False
    title = SOURCE_TITLE.search(seen)
    return title is not None and re.search("▶".encode() + CODES + title.group(1) + b" ", seen) is not None


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
                if whole_frame(seen):
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
    parser.add_argument("--tutorial", default="rose-pricing", help="which tutorial (the target is for rose-pricing)")
    args = parser.parse_args()
    loopscope = str(Path(sys.executable).parent / "loopscope")
    command = [loopscope, "tutorial", args.tutorial, "--lang", "en"]  # the markers are English
    with tempfile.TemporaryDirectory() as empty:
        cases = {
            "warm start (bytecode cached)": {"PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None},
            "no bytecode (all compiled at start)": {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": empty},
        }
        for case, environment in cases.items():
            times = measure(command, args.repeat, environment)
            target = " (target <= 450 ms)" if case.startswith("warm") else ""
            print(
                f"start to first frame of `loopscope tutorial {args.tutorial}`, {case}: "
                f"best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms "
                f"over {args.repeat} runs{target}"
            )


if __name__ == "__main__":
    main()
