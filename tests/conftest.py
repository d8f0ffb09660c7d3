"""How the suite's processes start: how many (one for files or test ids, a worker per core for the fast subset,
two per core for the rest), and with Ctrl-C working in the processes the tests start."""

from __future__ import annotations

import os
import signal

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The number `-n auto` (pyproject's addopts) stands for; None leaves it to pytest-xdist.

    Each worker collects the whole suite again (seconds where nothing is byte-compiled), which costs
    more than a file's or a test id's few tests save by running side by side, so those run here.
    The fast subset keeps the cores busy: a worker each. The debugger's tests spend most of their time
    waiting on the app's own timers (two workers on two cores used 27 s of CPU in 60 s of a Chinese
    walk; four took 34 s), so the whole suite runs two workers a core.
    `-n 2` or `-n 0` on the command line, or PYTEST_XDIST_AUTO_NUM_WORKERS, says otherwise.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    where = config.invocation_params.dir
    named = [arg for arg in config.args if not arg.startswith("-")]
    if named and all("::" in arg or (where / arg).is_file() for arg in named):
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if "not slow" in (config.option.markexpr or ""):
        return cores
    return 2 * cores


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background by a script (`cmd &`, nohup) inherits SIGINT ignored, and so
    would every process it starts: the tests that press Ctrl-C on a recording would see it do nothing.
    A handler here is not inherited across exec: the processes the tests start get Ctrl-C back."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
