"""Progress of long work on stderr (rich's progress bar) when stderr is a terminal; silent otherwise."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Report = Callable[[str, int, int], None]  # (what is being done, done, of how many)


def _silent(what: str, done: int, total: int) -> None:
    return None


@contextmanager
def progress_bar(description: str, unit: str = "", stream=None, stages: bool = True) -> Iterator[Report]:
    """`with progress_bar("importing") as report: report("reading", done, total)`. A pipe, a file or a
    test's capture gets nothing: the bar is for a person watching, never part of a command's output.
    With `stages`, each new `what` is a stage with a bar of its own; without, `what` only says which
    item the one bar is at (a file's name, events so far)."""
    stream = stream or sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        yield _silent
        return
    # Late: rich's progress and console are imports that a command printing to a pipe never needs.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if unit:
        columns.insert(3, TextColumn(unit))
    with Progress(*columns, console=Console(file=stream), transient=True) as progress:
        tasks: dict[str, Any] = {}  # one bar per stage; a stage of unknown length (total 0) pulses

        def report(what: str, done: int, total: int) -> None:
            if not stages:
                if not tasks:
                    tasks[""] = progress.add_task(description, total=total or None)
                label = f"{description}: {what}" if what else description
                progress.update(tasks[""], description=label, completed=done, total=total or None)
                return
            if what not in tasks:
                for earlier in tasks.values():
                    progress.update(earlier, visible=False)
                tasks[what] = progress.add_task(f"{description}: {what}" if what else description, total=total or None)
            progress.update(tasks[what], completed=done, total=total or None)

        yield report
