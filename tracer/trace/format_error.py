"""The one error a trace file that cannot be read raises: one line naming the file, the line and what is wrong."""

from __future__ import annotations

import os


class TraceFormatError(Exception):
    """A trace file that cannot be read; the message is one line naming the file and line."""

    def __init__(self, path: os.PathLike[str] | str, line: int | None, problem: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem}")
        self.path, self.line, self.problem = str(path), line, problem
