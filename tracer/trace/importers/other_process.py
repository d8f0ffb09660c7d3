"""The forked side of a two-process import: it is sent the text of some traces' spans, reads them, names its traces, and writes them when told their file names."""

from __future__ import annotations

import gc
import signal
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType
from typing import Any

from ..redact import default_redactor
from ..writer import TraceWriteError
from . import otlp
from .folder import write_trace
from .imported import Imported, PendingTrace
from .shape import ShapeNotes, loads
from .spans import LLM, TOOL, Span, TraceInfo

LABEL = "OTLP JSON"
RESULTS_AT_ONCE = 64  # traces reported to the reading process a message at a time


def _stopped(_number: int, _frame: FrameType | None) -> None:
    """A Ctrl-C, or the reading process stopping this one: the half-written trace is removed, and a
    second signal (Ctrl-C reaches both processes, then the reading one stops this one) must not cut that short."""
    # A handler that does nothing, not SIG_IGN: a signal already caught but not yet handled would
    # raise "signal ignored due to race condition" in the middle of removing that trace.
    signal.signal(signal.SIGINT, _already_stopping)
    signal.signal(signal.SIGTERM, _already_stopping)
    raise KeyboardInterrupt


def _already_stopping(_number: int, _frame: FrameType | None) -> None:
    """The second signal of a stop (see _stopped)."""


def other_process(conn: Connection, path: Path, folder: Path) -> None:
    """The forked process's whole life. A Ctrl-C (it reaches both processes) or the reading
    process stopping it ends it quietly, its half-written trace removed; what goes wrong is sent
    to the reading process, which says it."""
    signal.signal(signal.SIGINT, _stopped)
    signal.signal(signal.SIGTERM, _stopped)
    try:
        _read_and_write(conn, path, folder)
    except (KeyboardInterrupt, BrokenPipeError, EOFError):
        pass  # interrupted, or the reading process is gone: it says what happened
    except TraceWriteError as error:
        _tell(conn, ("failed", "write", str(error)))
    except BaseException:  # a bug: the reading process raises it with this traceback
        _tell(conn, ("failed", "bug", traceback.format_exc()))
    finally:
        conn.close()


def _tell(conn: Connection, message: tuple[Any, ...]) -> None:
    try:
        conn.send(message)
    except OSError:
        pass  # the reading process is gone: nobody is left to tell


def _read_and_write(conn: Connection, path: Path, folder: Path) -> None:
    imported, span_notes = _read(conn, path)
    if imported is None:
        return
    spans = [span for trace in imported.traces for span in trace.spans or ()]
    counts = (len(spans), sum(s.role == LLM for s in spans), sum(s.role == TOOL for s in spans))
    names = [imported.prepared(index).name for index in range(len(imported))]
    conn.send(("read", span_notes, counts, names))
    message = conn.recv()
    if message[0] != "write":
        return
    _, file_names, imported.warnings = message
    redactor = default_redactor()
    results: list[tuple[str, str, int, list[str]]] = []
    for index, name in enumerate(file_names):
        conversion = imported.converted(index, keep=False)
        write_trace(conversion, path, folder / name, redactor)
        results.append((name, conversion.recognised, len(conversion.events), conversion.notes))
        if len(results) >= RESULTS_AT_ONCE:
            conn.send(("written", results))
            results = []
    conn.send(("written", results))
    conn.send(("done",))


def _read(conn: Connection, path: Path) -> tuple[Imported | None, dict[int, list[str]]]:
    """The spans the reading process sends, read as it would have read them, by trace id in the
    file's order; and what could not be read in each (by the span's number in the file)."""
    notes = ShapeNotes()
    groups: dict[str | None, list[Span]] = {}
    span_notes: dict[int, list[str]] = {}
    collecting = gc.isenabled()
    gc.disable()  # as the reading process: the spans kept until the end hold no cycles
    try:
        while (message := conn.recv())[0] == "spans":
            for number, where, text in message[1]:
                before = len(notes.found)
                span = otlp.span_from(where, loads(text), notes)
                if len(notes.found) > before:
                    span_notes[number] = notes.found[before:]
                groups.setdefault(span.trace_id, []).append(span)
    finally:
        if collecting:
            gc.enable()
    if message[0] != "end":
        return None, span_notes
    imported = Imported(path, "otlp-json", LABEL)
    imported.traces = [PendingTrace(TraceInfo(trace_id=trace_id), spans) for trace_id, spans in groups.items()]
    return imported, span_notes
