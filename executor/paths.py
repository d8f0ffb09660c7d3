"""Where the executor lives, and the path rule every event's source and callee file is written with."""

from __future__ import annotations

import functools
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent


@functools.lru_cache(maxsize=256)  # resolving a path reads the disk; a run emits from a handful of files
def relative_path(filename: str) -> str:
    """`filename` relative to the project (executor/agents/react.py), or absolute when it is outside it."""
    path = Path(filename).resolve()
    try:
        return path.relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return path.as_posix()
