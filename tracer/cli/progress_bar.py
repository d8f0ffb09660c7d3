"""Progress of long work on stderr (rich's progress bar) when stderr is a terminal; silent otherwise."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Report = Callable[[str, int, int], None]  # (what is being done, done, of how many)


def _silent(what: str, done: int, total: int) -> None:
    return None


@contextmanager
def progress_bar(description: str, unit: str = "", stream=None) -> Iterator[Report]:
    """`with progress_bar("importing") as report: report("reading", done, total)`. A pipe, a file or a
    test's capture gets nothing: the bar is for a person watching, never part of a command's output."""
    stream = stream or sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        yield _silent
        return
    # Late: rich's progress and console are ~30 ms that a command printing to a pipe never needs.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if unit:
        columns.insert(3, TextColumn(unit))
    with Progress(*columns, console=Console(file=stream), transient=True) as progress:
        task = progress.add_task(description, total=None)

        def report(what: str, done: int, total: int) -> None:
            progress.update(task, description=f"{description}: {what}" if what else description,
                            completed=done, total=total or None)  # fmt: skip

        yield report
