"""A big OTLP JSON file imported into a folder by two processes: this one walks the file and converts some traces, a forked one is sent the text of the other traces' spans and converts those; the results are reported in the file's order, as one process reports them."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from ..redact import default_redactor
from ..writer import TraceWriteError
from . import otlp
from .folder import FolderImport, Written, file_name, write_trace
from .imported import Imported, PendingTrace
from .other_process import LABEL, other_process
from .otlp_stream import SpanStream
from .reading import join_loose_spans, reading_otlp, refuse_too_big, refuse_unreadable, said
from .shape import ShapeNotes, identifier
from .spans import LLM, TOOL, Span, TraceInfo

# Below this a file is imported by one process: forking and the pipe cost more than they save.
MIN_BYTES = 16 * 2**20
# The share of the spans' text this process converts itself: it also walks and parses the whole
# file, while the other parses only what it is sent (tuned on bench/bench_import.py).
OWN_SHARE = 0.4
SENT_AT_ONCE = 1 << 20  # characters of span text sent to the other process a message at a time


def worth_two(path: Path) -> bool:
    """Whether a second process helps: a big file, two CPUs, and fork (the child inherits the loaded
    modules, where a fresh interpreter would spend ~0.3 s importing them again)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return cpus >= 2 and "fork" in multiprocessing.get_all_start_methods() and path.stat().st_size >= MIN_BYTES


class _Other:
    """The forked process, and the pipe to it."""

    def __init__(self, path: Path, folder: Path) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.folder, self.done = folder, False
        for stream in (sys.stdout, sys.stderr):  # what this process buffered must not be printed twice
            stream.flush()
        self.process: BaseProcess = context.Process(
            target=other_process, args=(theirs, path, folder), name="loopscope import", daemon=True
        )
        self.process.start()
        theirs.close()

    def send(self, message: tuple[Any, ...]) -> None:
        try:
            self.conn.send(message)
        except OSError:
            raise self._gone() from None

    def receive(self) -> tuple[Any, ...]:
        try:
            message = self.conn.recv()
        except (EOFError, OSError):
            raise self._gone() from None
        if message[0] == "failed":
            if message[1] == "write":
                raise TraceWriteError(message[2])
            raise RuntimeError(f"the second import process failed:\n{message[2]}")
        return message

    def results(self, wait: bool) -> list[Written]:
        """The traces it has written since last asked (with `wait`, all the rest of them)."""
        found: list[Written] = []
        while not self.done and (wait or self.conn.poll()):
            message = self.receive()
            if message[0] == "done":
                self.done = True
            else:
                found += [Written(self.folder / name, *rest) for name, *rest in message[1]]
        return found

    def _gone(self) -> TraceWriteError:
        self.process.join(timeout=5)
        code = self.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return TraceWriteError(
            f"the second import process stopped ({how}); the traces written so far stay in {self.folder}/"
        )

    def stop(self) -> None:
        """Ended: told to stop if it has not finished (it removes its half-written trace), and waited for."""
        if self.process.is_alive() and not self.done and self.process.pid is not None:
            os.kill(self.process.pid, signal.SIGTERM)
        self.process.join(timeout=30)
        if self.process.is_alive():  # deaf to SIGTERM: something is badly wrong with it
            self.process.kill()
            self.process.join()
        self.conn.close()


class _Reader:
    """This process's side of the read: every span walked; its own traces' spans read, the others' sent."""

    def __init__(self, other: _Other) -> None:
        self.other = other
        self.notes = ShapeNotes()
        self.groups: dict[str | None, list[Span]] = {}
        self.kept: dict[str | None, bool] = {}  # trace id -> read here; in the order the file first names them
        self.exact = False  # a span carries loopscope's own events: one process reads such a file
        self.own_chars = self.sent_chars = 0
        self.batch: list[tuple[int, str, str]] = []
        self.batch_chars = 0
        self.note_places: dict[int, int] = {}  # a sent span's number -> where its notes go among ours

    def read(self, path: Path) -> None:
        stream = SpanStream(path, self.notes)
        for number, (where, raw) in enumerate(stream):
            trace_id = identifier(raw.get("traceId"))
            keep = self.kept.get(trace_id)
            if keep is None:
                keep = self.kept[trace_id] = self._keeps(trace_id)
            if raw.get("events") and otlp.event_texts(raw):
                self.exact = True
                return
            if keep:
                self.own_chars += stream.size()
                self.groups.setdefault(trace_id, []).append(otlp.span_from(where, raw, self.notes))
            else:
                text = stream.text()
                self.note_places[number] = len(self.notes.found)
                self.batch.append((number, where, text))
                self.sent_chars += len(text)
                self.batch_chars += len(text)
                if self.batch_chars >= SENT_AT_ONCE:
                    self._send()
        self._send()
        self.other.send(("end",))

    def _keeps(self, trace_id: str | None) -> bool:
        # Spans without a trace join the file's first trace: both are read here.
        if trace_id is None or len(self.kept) == (None in self.kept):
            return True
        return self.own_chars <= OWN_SHARE * (self.own_chars + self.sent_chars)

    def _send(self) -> None:
        if self.batch:
            self.other.send(("spans", self.batch))
            self.batch, self.batch_chars = [], 0

    def merge_notes(self, theirs: dict[int, list[str]]) -> None:
        """The other process's notes on the spans it read, each where one process would have made it."""
        found, merged, taken = self.notes.found, [], 0
        for number in sorted(theirs):
            place = self.note_places[number]
            merged += found[taken:place] + theirs[number]
            taken = place
        self.notes.found = merged + found[taken:]


def import_in_two(path: Path, folder: Path) -> FolderImport | None:
    """The file read by this process and a forked one (ImportProblem, one line, when it cannot be
    read); None for loopscope's own export (its spans carry their events exactly), which one process reads."""
    refuse_too_big(path)
    other = _Other(path, folder)
    try:
        reader = _Reader(other)
        with reading_otlp(path):
            reader.read(path)
        if reader.exact:
            other.stop()
            return None
        _read, their_notes, counts, their_names = other.receive()
        reader.merge_notes(their_notes)
        groups = reader.groups
        join_loose_spans(groups)
        own = [span for spans in groups.values() for span in spans]
        llm, tool = sum(s.role == LLM for s in own) + counts[1], sum(s.role == TOOL for s in own) + counts[2]
        refuse_unreadable(path, LABEL, len(own) + counts[0], llm, tool, reader.notes)
        imported = Imported(path, "otlp-json", LABEL, said(reader.notes))
        imported.traces = [PendingTrace(TraceInfo(trace_id=trace_id), spans) for trace_id, spans in groups.items()]
        order = [trace_id for trace_id, kept in reader.kept.items() if not kept or trace_id in groups]
        own_files, their_files = _file_names(imported, order, reader.kept, their_names)
        other.send(("write", their_files, imported.warnings))
    except BaseException:
        other.stop()
        raise
    kept = [reader.kept[trace_id] for trace_id in order]
    return FolderImport(LABEL, len(order), _written(imported, folder, own_files, kept, other))


def _file_names(
    imported: Imported, order: list[str | None], kept: dict[str | None, bool], their_names: list[str | None]
) -> tuple[list[str], list[str]]:
    """Every trace's file name, given in the file's order as one process gives them: this process's, the other's."""
    own_names, other_names = (imported.prepared(index).name for index in range(len(imported))), iter(their_names)
    taken: set[str] = set()
    own_files: list[str] = []
    their_files: list[str] = []
    for index, trace_id in enumerate(order, start=1):
        mine = kept[trace_id]
        name = file_name(next(own_names) if mine else next(other_names), trace_id, index, taken)
        (own_files if mine else their_files).append(name)
    return own_files, their_files


def _written(
    imported: Imported, folder: Path, own_files: list[str], kept: list[bool], other: _Other
) -> Iterator[Written]:
    try:
        redactor = default_redactor()
        own: list[Written] = []
        theirs: list[Written] = []
        for index, name in enumerate(own_files):
            conversion = imported.converted(index, keep=False)
            write_trace(conversion, imported.path, folder / name, redactor)
            own.append(Written(folder / name, conversion.recognised, len(conversion.events), conversion.notes))
            theirs += other.results(wait=False)  # so the other never waits on a full pipe
        theirs += other.results(wait=True)
        own_results, their_results = iter(own), iter(theirs)
        for mine in kept:
            yield next(own_results) if mine else next(their_results)
    finally:
        other.stop()
