"""The one check before a command writes an output file: never over a file it reads, nor over a trace unless --force."""

from __future__ import annotations

import argparse
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..trace.header import TRACE_MARKER
from ..trace.literal_text import scrub
from .usage_error import UsageError

_HEADER_BYTES = 1 << 16  # a header line is a few hundred bytes; a longer first line is no trace's header


def add_force_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="write the output even over an existing loopscope trace")


def check_output(output: str | os.PathLike[str] | None, inputs: Iterable[str | os.PathLike[str]], force: bool) -> None:
    """Refuse, in one line, to write `output` over one of `inputs` (never allowed: the command would
    destroy what it reads) or over an existing loopscope trace (allowed with `force`)."""
    if output is None:
        return
    target = Path(output)
    try:
        info = target.stat()
    except OSError:
        return  # nothing there (or nothing we can see): the write itself says what is wrong
    for source in inputs:
        if _same_file(target, info, source):
            raise UsageError(
                scrub(f"{output} is a file this command reads ({source}); write the output to another file")
            )
    if not force and stat.S_ISREG(info.st_mode) and _is_trace(target):
        raise UsageError(
            scrub(f"{output} is a loopscope trace: give another output file, or add --force to replace it")
        )


def _same_file(target: Path, info: os.stat_result, source: str | os.PathLike[str]) -> bool:
    """The same file however it is named: a symbolic or hard link to an input counts as the input."""
    try:
        other = os.stat(source)
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino)


def _is_trace(path: Path) -> bool:
    """Whether the file's first line is a loopscope trace header (read only from a regular file: a FIFO
    would block)."""
    try:
        with path.open("rb") as file:
            first = file.readline(_HEADER_BYTES)
    except OSError:
        return False
    try:
        header = json.loads(first)
    except ValueError:
        return False
    return isinstance(header, dict) and header.get("format") == TRACE_MARKER
