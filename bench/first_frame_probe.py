"""A command run in this process until its first whole frame, whose CPU time then is written to $PROBE_OUT.

bench_startup.py --cpu runs each command through this: the CPU a process spent to reach its first frame
is what a busy machine cannot inflate the way it inflates the wall clock (other processes' turns), and
it stops at the frame itself (killing the process from outside lets it run on meanwhile).
Usage: python bench/first_frame_probe.py hello | python bench/first_frame_probe.py loopscope ARGS...
"""

from __future__ import annotations

import os
import sys
import time

_BEFORE = time.process_time()
from bench_startup import hello_frame, whole_frame  # noqa: E402  (its import is the probe's, not the command's)

PROBE_COST = time.process_time() - _BEFORE  # taken off what is reported


def _probe(driver_class, done) -> None:
    write = driver_class.write
    seen: list[bytes] = []

    def probed(self, data: str) -> None:
        write(self, data)
        seen.append(data.encode())
        if done(b"".join(seen)):
            with open(os.environ["PROBE_OUT"], "a") as out:
                out.write(f"{time.process_time() - PROBE_COST}\n")
            os._exit(0)

    driver_class.write = probed


def main() -> None:
    hello = sys.argv[1] == "hello"
    from textual.drivers.linux_driver import LinuxDriver
    from textual.drivers.web_driver import WebDriver

    for driver_class in (LinuxDriver, WebDriver):
        _probe(driver_class, hello_frame if hello else whole_frame)
    if hello:
        import runpy

        sys.argv = [sys.argv[0]]
        runpy.run_path(str(os.path.join(os.path.dirname(__file__), "hello_textual.py")), run_name="__main__")
        return
    from tracer.cli import main as loopscope

    sys.argv = ["loopscope", *sys.argv[2:]]
    sys.exit(loopscope())


if __name__ == "__main__":
    main()
