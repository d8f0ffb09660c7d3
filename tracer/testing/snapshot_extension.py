"""syrupy extensions that store a trace's transitions (optionally its normalised events) as readable text."""

from __future__ import annotations

from typing import Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from ..trace.transitions import Trace


class TraceSnapshotExtension(SingleFileSnapshotExtension):
    """`assert trace == snapshot` stores one transition per line, so a changed loop fails with a
    diff of the transitions that changed, and `pytest --snapshot-update` rewrites the file.

    Accepts a Trace, a list of events, or the path of a trace file.
    """

    _write_mode = WriteMode.TEXT
    file_extension = "transitions.txt"
    include_events = False

    def serialize(self, data: Any, **kwargs: Any) -> str:
        return Trace.of(data).snapshot_text(include_events=self.include_events)


class TraceEventsSnapshotExtension(TraceSnapshotExtension):
    """The transitions, then every event with its volatile fields (times, run id, usage) left out."""

    file_extension = "events.txt"
    include_events = True
