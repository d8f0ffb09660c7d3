"""A trace file's bytes read by offset through a small window, not memory-mapped: a file cut short while it
is read becomes a one-line error instead of SIGBUS killing the process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .format_error import TraceFormatError

# Reads go through one window: a read that follows on from it (a scan over consecutive lines) fills
# WINDOW bytes, so a scan costs one read per 256 kB rather than one per line; a jump elsewhere fills
# only JUMP_WINDOW (reading 256 kB for one line made a random line 40x slower; see bench/bench_reader.py).
WINDOW = 256 * 1024
JUMP_WINDOW = 8 * 1024


class TraceBytes:
    """Bytes `[start:stop]` of an open file, read with pread. Why not mmap: touching a mapped page past
    the end of a file that shrank after it was mapped raises SIGBUS, which Python cannot catch."""

    def __init__(self, fd: int, path: Path, size: int) -> None:
        self._fd, self.path, self.size = fd, path, size
        self._at, self._window = 0, b""

    def read(self, start: int, stop: int) -> bytes:
        at = self._at
        if at <= start and stop <= at + len(self._window):
            return self._window[start - at : stop - at]
        if stop - start >= WINDOW:  # a long line: read alone, not kept
            return self._pread(start, stop - start)
        following = at <= start <= at + len(self._window) + JUMP_WINDOW
        wanted = max(stop - start, WINDOW if following else JUMP_WINDOW)
        # What the window reads past `stop` may be gone (the file shrank there): only the line must be whole.
        self._window = self._pread(start, min(wanted, self.size - start), stop - start)
        self._at = start
        return self._window[: stop - start]

    def chunks(self, chunk: int) -> Iterator[tuple[int, bytes]]:
        """(offset, bytes) of the whole file as it was opened, `chunk` bytes at a time."""
        for start in range(0, self.size, chunk):
            yield start, self._pread(start, min(chunk, self.size - start))

    def _pread(self, start: int, length: int, needed: int | None = None) -> bytes:
        data = os.pread(self._fd, length, start)
        if len(data) < (length if needed is None else needed):
            raise self.changed()
        return data

    def changed(self) -> TraceFormatError:
        try:
            now = f"{os.fstat(self._fd).st_size:,} bytes now"
        except OSError:
            now = "gone now"
        return TraceFormatError(
            self.path,
            None,
            f"the file changed while it was read ({self.size:,} bytes when opened, {now}); "
            "open it again once whatever writes it has finished",
        )
