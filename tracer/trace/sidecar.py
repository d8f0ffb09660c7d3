"""Files kept next to a trace (breakpoints, index cache), read and written as untrusted: no links, no FIFOs, capped, atomic."""

from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any


class SidecarRefused(Exception):
    """A sidecar file that must not be used; the message is one line saying why."""


def read_sidecar(path: str | os.PathLike[str], max_bytes: int) -> bytes | None:
    """The bytes of a sidecar file, None when there is none; SidecarRefused for a link, FIFO, device or giant.

    O_NOFOLLOW refuses a planted symlink, O_NONBLOCK keeps a FIFO from hanging the open, and the
    type and size are checked on the opened descriptor, so nothing can be swapped in between.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as error:
        if os.path.islink(path):
            raise SidecarRefused(f"{path} is a symbolic link; sidecar files are never followed") from None
        raise SidecarRefused(f"cannot read {path}: {error.strerror or error}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SidecarRefused(f"{path} is not a regular file")
        if info.st_size > max_bytes:
            raise SidecarRefused(f"{path} is {info.st_size:,} bytes, more than the {max_bytes:,} allowed")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise SidecarRefused(f"{path} grew past {max_bytes:,} bytes while being read")
    return data


def write_sidecar(path: str | os.PathLike[str], data: bytes) -> None:
    """Write atomically (own temp file, then rename); refuses to replace anything but a regular file."""
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
        raise SidecarRefused(f"{path} is {kind}; not overwriting it")
    temporary = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed here")


def loads_json(data: bytes) -> Any:
    """Strict JSON: no Infinity/NaN, and nesting too deep is a ValueError, not a RecursionError."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
