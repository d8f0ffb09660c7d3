"""Where a recording that did not finish keeps its partial trace, without replacing one kept before."""

from __future__ import annotations

import errno
import itertools
import os
from pathlib import Path

INTERRUPTED = ".interrupted"  # a recording stopped by Ctrl-C; `runs` marks these as interrupted
# Filesystems without hard links (some network and FAT mounts): claim the name by checking, then renaming.
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK)


def kept_name(path: Path, suffix: str, number: int) -> Path:
    """h.jsonl.interrupted, then h.2.jsonl.interrupted, h.3.jsonl.interrupted …: the number goes before
    `.jsonl` so that every kept file still ends in `.jsonl<suffix>` and is found as a trace."""
    if number == 1:
        return path.with_name(path.name + suffix)
    stem, dot, extension = path.name.rpartition(".")
    named = f"{stem}.{number}.{extension}" if dot and stem else f"{path.name}.{number}"
    return path.with_name(named + suffix)


def keep_partial(partial: Path, path: Path, suffix: str) -> Path:
    """Move `partial` to the first free name of `path` + `suffix`; an earlier run's kept file stays as it was.
    A hard link claims the name atomically, so two runs interrupted at once never take the same one."""
    for number in itertools.count(1):
        kept = kept_name(path, suffix, number)
        try:
            os.link(partial, kept)
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno not in _NO_LINKS:
                raise
            if os.path.lexists(kept):
                continue
            os.replace(partial, kept)
            return kept
        partial.unlink()
        return kept
    raise AssertionError("unreachable: itertools.count never ends")
