"""The recordings loopscope ships (fixtures/, the tutorials' runs): read-only to the debugger, forks go elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

from executor.paths import PROJECT_ROOT

# The repository's fixtures/, and the copy an installed wheel carries as package data.
SHIPPED_DIRS = (PROJECT_ROOT / "fixtures", PROJECT_ROOT / "tutorials" / "fixtures")
ENV_FORKS = "LOOPSCOPE_FORKS"  # where forks of shipped recordings go (default: the user's data directory)


def is_shipped(trace_path: str | os.PathLike[str]) -> bool:
    """True for a recording that ships with loopscope: nothing is ever written next to it."""
    path = Path(trace_path).resolve()
    return any(path.is_relative_to(shipped.resolve()) for shipped in SHIPPED_DIRS)


def user_fork_dir() -> Path:
    """$LOOPSCOPE_FORKS, else $XDG_DATA_HOME/loopscope/forks (~/.local/share/loopscope/forks)."""
    chosen = os.environ.get(ENV_FORKS)
    if chosen:
        return Path(chosen).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "loopscope" / "forks"
