"""A listing of runs: the files found, each row from the catalogue while its file is unchanged, else read again."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..report.cost.prices import PriceTable
from ..trace.importers import looks_foreign
from .catalogue import Catalogue, Stored
from .finding import Finding, Found, Stamp, find_traces
from .run_row import RunRow, priced
from .summary import Shape, Summary, summarise


@dataclass
class RunList:
    """The runs found under some paths, one priced row each, in path order; what the listing cost."""

    rows: list[RunRow]
    catalogue: Catalogue
    finding: Finding
    read: int = 0  # files read (new, changed, or not trusted from the catalogue)
    cached: int = 0  # rows taken from the catalogue
    foreign: int = 0  # other tools' exports passed over (no --imports)
    notes: list[str] = field(default_factory=list)  # one line each: the catalogue, folders not readable

    def shapes(self, rows: Sequence[RunRow]) -> dict[str, frozenset[Shape] | None]:
        """The event shapes of `rows` (for --where), from the catalogue; None where it has none."""
        return self.catalogue.shapes_of(row.path for row in rows)


def list_runs(
    paths: Sequence[str | os.PathLike[str]],
    catalogue: Catalogue,
    *,
    imports: bool = False,
    prices: PriceTable | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> RunList:
    """Every run under `paths`: trace files (and with `imports` other tools' exports), one row each.
    Rows come from `catalogue` while a file's stamp is unchanged; the rest are read, and stored.
    `progress` hears (the file, files read, of how many to read) as each is read."""
    prices = prices or PriceTable.load()
    finding = find_traces(paths, imports)
    stored = _stored(catalogue, finding)
    listing = RunList([], catalogue, finding, notes=list(finding.problems))
    fresh: list[tuple[str, Stamp, int, Summary]] = []
    rows = [(found, _cached_row(stored.get(found.path), found)) for found in finding.files]
    to_read = sum(row is None for _found, row in rows)
    for found, row in rows:
        if row is None:
            if progress is not None:
                progress(os.path.basename(found.path), listing.read + listing.foreign, to_read)
            summary = _read(found, prices, imports)
            if summary is None:
                listing.foreign += 1
                continue
            fresh.append((found.path, found.stamp, summary.read_ns, summary.summary))
            row = summary.summary.row
            listing.read += 1
        else:
            listing.cached += 1
        if row.converted and not imports:
            listing.foreign += 1  # read with --imports before; not asked for now
            continue
        listing.rows.append(priced(row, prices))
    listed = {found.path for found in finding.files}
    catalogue.forget(path for path in stored if path not in listed)
    catalogue.save(fresh)
    if catalogue.note:
        listing.notes.insert(0, catalogue.note)
    return listing


def _stored(catalogue: Catalogue, finding: Finding) -> dict[str, Stored]:
    """The catalogue's entries below every folder walked, and for every file named."""
    stored: dict[str, Stored] = {}
    for folder in finding.folders:
        stored.update(catalogue.stored_under(folder))
    named = [f.path for f in finding.files if not any(f.path.startswith(d + os.sep) for d in finding.folders)]
    stored.update(catalogue.stored_at(named))
    return stored


def _cached_row(stored: Stored | None, found: Found) -> RunRow | None:
    if stored is None or not stored.fresh_for(found.stamp):
        return None
    return stored.row(found.path)


@dataclass(frozen=True)
class _Read:
    summary: Summary
    read_ns: int


def _read(found: Found, prices: PriceTable, imports: bool) -> _Read | None:
    """The file read now; None for another tool's export when imports were not asked for."""
    read_ns = time.time_ns()  # before reading: a change during the read makes the stamp stale
    if not imports and stat.S_ISREG(found.info.st_mode) and _foreign(found.path):
        return None
    return _Read(summarise(found.path, prices, found.info), read_ns)


def _foreign(path: str) -> bool:
    """Another tool's export (JSON that is not a loopscope trace)."""
    try:
        # O_NONBLOCK: a FIFO put in its place since the walk must not hang the listing.
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            return looks_foreign(handle)
    except OSError:
        return False  # the reader says what is wrong with it
