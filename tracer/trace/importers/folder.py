"""A file's traces written into a folder, one loopscope trace file per trace id, reported in the file's order."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from executor.events import EventBase

from ..annotations import append_score
from ..header import utc_stamp
from ..redact import Redactor, default_redactor
from ..writer import TraceWriter
from .imported import Imported
from .spans import Conversion


@dataclass(frozen=True)
class Written:
    """One trace file an import wrote: where, what was recognised, how many events, what a reader must be told."""

    path: Path
    recognised: str
    events: int
    notes: list[str]
    trace_id: str | None = None  # the source's id of the trace


@dataclass
class FolderImport:
    """A file read for writing into a folder: what it is, how many traces it holds, and the traces
    written one by one as `written` is iterated (a Ctrl-C leaves the finished ones, and no half-written one)."""

    label: str  # "OTLP JSON", "Langfuse trace", "LangSmith runs"
    traces: int
    written: Iterator[Written]


def trace_meta(conversion: Conversion, source: Path) -> dict[str, Any]:
    """What a converted trace's header says about where it came from."""
    meta: dict[str, Any] = {"imported_from": str(source), "import_format": conversion.format}
    meta |= conversion.header  # a loopscope export's own scenario and agent: the run keeps its name
    if conversion.trace_id is not None:
        meta["imported_trace_id"] = conversion.trace_id
    if conversion.name:  # the trace's own name in the source ("LangGraph", "Agent workflow"): runs' name column
        meta["imported_name"] = conversion.name
    # When the source's run began, not when it was converted (None: the source's times are no dates).
    meta["recorded_at"] = utc_stamp(conversion.started) if conversion.started is not None else None
    return meta


def write_trace(
    conversion: Conversion, source: Path, out: Path, redactor: Redactor, events: Iterable[EventBase] | None = None
) -> int:
    """One trace of a folder import, written whole or not at all: the source stays on disk, so an
    interrupted trace is removed rather than kept as `.interrupted`, and no fsync (5,000 of them took
    ~30 s; see docs/performance.md). `events` (made as they are written) stand in for the conversion's;
    the number written is returned."""
    writer = TraceWriter(out, redactor=redactor, flush="close", sync=False, **trace_meta(conversion, source))
    count = 0
    try:
        for event in conversion.events if events is None else events:
            writer(event)
            count += 1
    except BaseException:
        writer.discard()
        raise
    writer.close()
    for score in conversion.scores:  # after the events, as `loopscope score` adds them
        append_score(out, score)
    return count


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(name: str | None, trace_id: str | None, index: int, taken: set[str]) -> str:
    """A file name for a trace a person can tell apart from its neighbours: the trace's name and
    the start of its id (`LangGraph-e1fde3efec57.jsonl`); never one already `taken`."""
    name = _UNSAFE.sub("-", name or "trace").strip("-.")[:40] or "trace"
    short = _UNSAFE.sub("", trace_id or "").lstrip("0")[:12] or str(index)
    candidate, extra = f"{name}-{short}", 1
    while f"{candidate}.jsonl" in taken:
        extra += 1
        candidate = f"{name}-{short}-{extra}"
    taken.add(f"{candidate}.jsonl")
    return f"{candidate}.jsonl"


def written_one_by_one(imported: Imported, folder: str | os.PathLike[str]) -> Iterator[Written]:
    """Each trace of the file converted and written to `folder` in turn (one in memory at a time)."""
    folder = Path(folder)
    taken: set[str] = set()
    redactor = default_redactor()  # one for all: reading the environment's secrets once, not per file
    for index in range(len(imported)):
        conversion, events = imported.streamed(index)  # events made as they are written: none held
        out = folder / file_name(conversion.name, conversion.trace_id, index + 1, taken)
        count = write_trace(conversion, imported.path, out, redactor, events)
        yield Written(out, conversion.recognised, count, conversion.notes, conversion.trace_id)
