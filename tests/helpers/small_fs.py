"""A real small (or read-only) filesystem for attack tests: a tmpfs when we may mount one."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "64k", read_only: bool = False) -> Iterator[Path | None]:
    """Mount a tmpfs of `size` at `where`; yields None when this machine does not let us mount."""
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size},nr_inodes=64" + (",ro" if read_only else "")
    try:
        command = ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)]
        mounted = subprocess.run(command, capture_output=True).returncode == 0
    except FileNotFoundError:  # no mount(8) at all (a slim container): the tests skip as they do without root
        mounted = False
    try:
        yield where if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(where)], check=False)


def fill(directory: Path, leave: int) -> None:
    """Use up the free space of the filesystem holding `directory`, all but about `leave` bytes."""
    stats = os.statvfs(directory)
    (directory / "filler").write_bytes(b"x" * max(0, stats.f_bavail * stats.f_frsize - leave))
