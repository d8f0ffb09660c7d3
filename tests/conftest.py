"""How many processes run the suite: a worker per core for folders, one process for files or test ids."""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The number `-n auto` (pyproject's addopts) stands for; None leaves it to pytest-xdist (a core each).

    Each worker collects the whole suite again (seconds where nothing is byte-compiled), which costs
    more than a file's or a test id's few tests save by running side by side, so those run here.
    `-n 2` or `-n 0` on the command line, or PYTEST_XDIST_AUTO_NUM_WORKERS, says otherwise.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    where = config.invocation_params.dir
    named = [arg for arg in config.args if not arg.startswith("-")]
    if named and all("::" in arg or (where / arg).is_file() for arg in named):
        return 0
    return None
