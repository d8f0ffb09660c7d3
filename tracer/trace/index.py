"""A compact per-event index of a trace (kind, iteration, tool, call stack, source line), built without validating events."""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

from executor.events import EventBase

from .reader import TraceFile
from .sidecar import SidecarRefused, loads_json, read_sidecar, write_sidecar


@dataclass(frozen=True)
class EventShape:
    """Everything but the payload that events sharing an index code have in common.

    A run has few distinct shapes (one per yield site, stack and tool), so the index
    stores one small integer per event and these facts once per shape.
    """

    kind: str
    frames: tuple[str, ...]
    file: str
    line: int
    function: str
    tool: str | None

    @property
    def depth(self) -> int:
        return len(self.frames)


# The envelope as TraceWriter writes it (pydantic keeps field order); the second group is the shape.
# [^"]* is the fastest scan; a value with an escaped quote fails _SHAPE below and we fall back.
_ENVELOPE = re.compile(
    rb'\n\{"seq":\d+,"run_id":"[^"]*","t":[-+0-9.eE]+,"iteration":(-?\d+),'
    rb'("frames":\[[^\]]*\],"source":\{"file":"[^"]*","line":\d+,"function":"[^"]*"\},'
    rb'"kind":"[a-z_]+"(?:,"(?:tool|requested)":"[^"]*"|,"action":\{"tool":"[^"]*")?)')
_TEXT = rb'[^"\\]*(?:\\.[^"\\]*)*'
_SHAPE = re.compile(
    rb'"frames":\[([^\]]*)\],"source":\{"file":"(' + _TEXT + rb')","line":(\d+),"function":"('
    + _TEXT + rb')"\},"kind":"([a-z_]+)"(?:,"(?:tool|requested)":"(' + _TEXT + rb')"|,"action":\{"tool":"('
    + _TEXT + rb')")?')
_CHUNK = 4 << 20  # small enough that a background scan lets the UI thread in often
Progress = Callable[[float], None]


def _json_text(raw: bytes) -> str:
    return json.loads(b'"' + raw + b'"')


class _Unusual(ValueError):
    """A line the fast scan cannot read exactly; the index falls back to decoding JSON."""


def _shape_from_tail(tail: bytes) -> EventShape:
    match = _SHAPE.fullmatch(tail)
    if match is None:
        raise _Unusual(tail[:80])
    frames, file, line, function, kind, tool, step_tool = match.groups()
    tool_bytes = tool if tool is not None else step_tool
    return EventShape(kind=kind.decode(), frames=tuple(json.loads(b"[" + frames + b"]")),
                      file=_json_text(file), line=int(line), function=_json_text(function),
                      tool=_json_text(tool_bytes) if tool_bytes is not None else None)


def _decoded(trace: TraceFile, position: int) -> dict[str, Any]:
    """One event as a dict; a line that is not a valid event raises TraceFormatError naming it."""
    try:
        event = json.loads(trace.raw_line(position))
        shape_of(event)
        int(event["iteration"])
        return event
    except (ValueError, KeyError, TypeError, AttributeError):
        trace[position]  # validates, and raises the one-line error for this line
        raise


def shape_of(event: dict[str, Any]) -> EventShape:
    """The shape of a decoded event (the JSON dict)."""
    source = event["source"]
    return EventShape(kind=event["kind"], frames=tuple(event["frames"]), file=source["file"],
                      line=int(source["line"]), function=source["function"], tool=event_tool(event))


def _envelopes(path: Any) -> Iterator[list[tuple[bytes, bytes]]]:
    """(iteration, shape tail) of every event line, one list per chunk of the file.

    Reads into one reused buffer (fresh 32 MB allocations cost more than the copy), matches
    up to the last newline and moves the unfinished line to the front for the next read.
    """
    filled = 0
    with open(path, "rb") as handle:
        buffer = bytearray(max(1, min(_CHUNK, os.fstat(handle.fileno()).st_size)))
        while True:
            if filled == len(buffer):  # one line longer than the buffer: make room
                buffer.extend(bytes(len(buffer)))
            with memoryview(buffer) as view:
                got = handle.readinto(view[filled:])
            limit = filled + got
            end = buffer.rfind(b"\n", 0, limit) if got else limit
            if got and end <= 0:
                filled = limit
                continue
            yield _ENVELOPE.findall(buffer, 0, end)
            if not got:
                return
            buffer[:limit - end] = buffer[end:limit]
            filled = limit - end


CACHE_SUFFIX = ".index.npz"


def cache_path(trace_path: str | os.PathLike[str]) -> str:
    return str(trace_path) + CACHE_SUFFIX


def _stamp(path: str | os.PathLike[str]) -> np.ndarray:
    # The inode and device too: a cache copied (cp -p) from another trace of the same size and time is not its own.
    info = os.stat(path)
    return np.array([info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev], dtype=np.int64)


# A cache holds two int32 per event plus the shapes; anything far bigger was not written by us.
MAX_CACHE_BYTES_PER_EVENT = 16
_SHAPE_FIELDS = {"kind": str, "file": str, "line": int, "function": str}


def _shapes_from_json(text: str) -> list[EventShape]:
    shapes = []
    for item in loads_json(text.encode("utf-8")):
        if not isinstance(item, dict) or set(item) != {*_SHAPE_FIELDS, "frames", "tool"}:
            raise ValueError("a shape has the wrong fields")
        if not all(isinstance(item[name], kind) for name, kind in _SHAPE_FIELDS.items()) or \
                not (item["tool"] is None or isinstance(item["tool"], str)) or \
                not (isinstance(item["frames"], list) and all(isinstance(f, str) for f in item["frames"])):
            raise ValueError("a shape has a field of the wrong type")
        shapes.append(EventShape(**{**item, "frames": tuple(item["frames"])}))
    return shapes


def _check_arrays(codes: np.ndarray, iterations: np.ndarray, total: int, shapes: int) -> None:
    for name, array in (("codes", codes), ("iterations", iterations)):
        if array.ndim != 1 or array.dtype.kind not in "iu" or len(array) != total:
            raise ValueError(f"{name} is not {total} whole numbers")
    if total and (codes.min() < 0 or codes.max() >= shapes):
        raise ValueError("a shape code points at no shape")
    if total and (iterations.min() < 0 or np.any(np.diff(iterations) < 0)):
        raise ValueError("iterations go backwards")


class TraceIndex:
    """Per event: a shape code and the iteration. Grows in place for live runs."""

    def __init__(self) -> None:
        self.shapes: list[EventShape] = []
        self._shape_ids: dict[EventShape, int] = {}
        self._codes = np.zeros(1024, dtype=np.int32)
        self._iterations = np.zeros(1024, dtype=np.int32)
        self._count = 0
        self._tables: dict[str, np.ndarray] = {}
        self._positions: dict[str, np.ndarray] = {}

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def build(cls, trace: TraceFile, progress: Progress | None = None) -> "TraceIndex":
        """Index every event of an open trace: a fast scan of the raw bytes, JSON per line as fallback."""
        index = cls.scan(trace.path, len(trace), progress)
        if index is None:
            index = cls()
            for position in range(len(trace)):
                event = _decoded(trace, position)
                index._add(shape_of(event), int(event["iteration"]))
        return index

    @classmethod
    def scan(cls, path: str | os.PathLike[str], total: int,
             progress: Progress | None = None) -> "TraceIndex | None":
        """The fast scan alone (needs no TraceFile, so it can run in another process).

        None when some line is not in TraceWriter's layout; then use build().
        """
        iterations: list[np.ndarray] = []
        codes: list[np.ndarray] = []
        tails: dict[bytes, int] = {}
        found = 0
        for matches in _envelopes(path):
            iterations.append(np.array([it for it, _tail in matches]).astype(np.int32))
            codes.append(np.array([tails.setdefault(tail, len(tails)) for _it, tail in matches],
                                  dtype=np.int32))
            found += len(matches)
            if progress:
                progress(min(1.0, found / max(total, 1)))
            if found >= total:
                break
        if found < total:
            return None
        try:
            shapes = [_shape_from_tail(t) for t in tails]
        except _Unusual:
            return None
        index = cls()
        index._load(np.concatenate(codes)[:total] if codes else np.zeros(0, np.int32),
                    np.concatenate(iterations)[:total] if iterations else np.zeros(0, np.int32), shapes)
        return index

    # -- a cache next to big traces, so reopening one is instant ------------------------------
    @classmethod
    def cached(cls, path: str | os.PathLike[str], total: int) -> "TraceIndex | None":
        """The index saved by save_cache, if it is there, whole, and the trace has not changed since."""
        return cls.load_cache(path, total)[0]

    @classmethod
    def load_cache(cls, path: str | os.PathLike[str], total: int) -> "tuple[TraceIndex | None, str | None]":
        """(index or None, why the cache next to the trace was not used, or None when there was none).

        The cache is untrusted: a planted link, a FIFO, a giant, a bad zip, arrays of the
        wrong shape or another trace's index all mean "rebuild", with the reason as a warning.
        """
        try:
            raw = read_sidecar(cache_path(path), MAX_CACHE_BYTES_PER_EVENT * total + (1 << 20))
            if raw is None:
                return None, None
            with np.load(io.BytesIO(raw), allow_pickle=False) as saved:
                if not np.array_equal(saved["stamp"], _stamp(path)):
                    return None, None  # an out-of-date cache is normal: the trace was rewritten
                codes, iterations = saved["codes"], saved["iterations"]
                shapes = _shapes_from_json(str(saved["shapes"]))
            _check_arrays(codes, iterations, total, len(shapes))
        except (SidecarRefused, ValueError, KeyError, TypeError, OSError, zipfile.BadZipFile, EOFError) as error:
            return None, f"ignored the index cache {cache_path(path)} ({error}); rebuilding it"
        index = cls()
        index._load(codes.astype(np.int32), iterations.astype(np.int32), shapes)
        return index, None

    def save_cache(self, path: str | os.PathLike[str], stamp: np.ndarray) -> None:
        """Best effort: a read-only directory or a planted file just means no cache."""
        shapes = json.dumps([vars(s) for s in self.shapes], ensure_ascii=False)
        out = io.BytesIO()
        np.savez(out, stamp=stamp, codes=self._codes[:self._count],
                 iterations=self._iterations[:self._count], shapes=np.array(shapes))
        try:
            write_sidecar(cache_path(path), out.getvalue())
        except (OSError, SidecarRefused):
            pass  # best effort (see the docstring): the next open scans again

    @classmethod
    def scan_and_cache(cls, path: str | os.PathLike[str], total: int) -> "TraceIndex | None":
        stamp = _stamp(path)  # taken first: a trace that changes during the scan is not cached as it was
        index = cls.scan(path, total)
        if index is not None:
            index.save_cache(path, stamp)
        return index

    def _load(self, codes: np.ndarray, iterations: np.ndarray, shapes: list[EventShape]) -> None:
        # Equal shapes from different tails (e.g. escaped vs raw text) collapse to one id.
        remap = np.array([self._shape_id(s) for s in shapes] or [0], dtype=np.int32)
        self._codes = remap[codes] if len(codes) else codes
        self._iterations = iterations
        self._count = len(codes)

    def _shape_id(self, shape: EventShape) -> int:
        code = self._shape_ids.get(shape)
        if code is None:
            code = self._shape_ids[shape] = len(self.shapes)
            self.shapes.append(shape)
            self._tables.clear()
        return code

    def _add(self, shape: EventShape, iteration: int) -> None:
        if self._count == len(self._codes):
            self._codes = np.resize(self._codes, max(1024, 2 * self._count))
            self._iterations = np.resize(self._iterations, max(1024, 2 * self._count))
        self._codes[self._count] = self._shape_id(shape)
        self._iterations[self._count] = iteration
        self._count += 1
        self._positions.clear()

    def append(self, event: EventBase) -> None:
        """Add one event of a live run."""
        self._add(shape_of(event.model_dump(mode="json")), event.iteration)

    # -- reading ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._count

    def shape(self, position: int) -> EventShape:
        return self.shapes[int(self._codes[position])]

    def kind(self, position: int) -> str:
        return self.shape(position).kind

    def depth(self, position: int) -> int:
        return self.shape(position).depth

    def iteration(self, position: int) -> int:
        return int(self._iterations[position])

    def shape_codes(self, lo: int, hi: int) -> np.ndarray:
        return self._codes[lo:hi]

    def iterations(self, lo: int, hi: int) -> np.ndarray:
        return self._iterations[lo:hi]

    def shape_value(self, shape: EventShape, name: str) -> Any:
        """A shape's answer for a condition field (see tracer/conditions.py)."""
        if name == "method":
            return shape.function
        return getattr(shape, name)

    def table(self, name: str) -> np.ndarray:
        """Per-shape values of `name` as an array (cached until a new shape appears)."""
        if name not in self._tables:
            self._tables[name] = np.array([self.shape_value(s, name) for s in self.shapes] or [0])
        return self._tables[name]

    def column(self, name: str, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """Per-event values of a shape field, e.g. column("depth")."""
        hi = self._count if hi is None else hi
        return self.table(name)[self._codes[lo:hi]]

    def shape_mask(self, predicate: Callable[[EventShape], bool], lo: int, hi: int) -> np.ndarray:
        table = np.array([bool(predicate(s)) for s in self.shapes] + [False], dtype=bool)
        return table[self._codes[lo:hi]]

    def positions(self, kind: str) -> np.ndarray:
        """Sorted positions of every event of `kind`."""
        if kind not in self._positions:
            self._positions[kind] = np.flatnonzero(self.shape_mask(lambda s: s.kind == kind, 0, self._count))
        return self._positions[kind]

    def last_before(self, kind: str, position: int, lo: int = 0) -> int | None:
        """The last event of `kind` at or before `position` and at or after `lo`."""
        found = self.positions(kind)
        at = int(np.searchsorted(found, position, side="right")) - 1
        return int(found[at]) if at >= 0 and found[at] >= lo else None

    def count_before(self, kind: str, position: int) -> int:
        """How many events of `kind` are at or before `position`."""
        return int(np.searchsorted(self.positions(kind), position, side="right"))

    def iteration_start(self, position: int) -> int:
        """The first event of the iteration `position` is in (iterations never go down in a run)."""
        return int(np.searchsorted(self._iterations[:self._count], self._iterations[position], side="left"))


def scan_windows(start: int, end: int, direction: int) -> Iterator[tuple[int, int]]:
    """[lo, hi) slices covering start..end inclusive in walking order, growing so near hits are cheap."""
    size = 4096
    if direction > 0:
        lo = start
        while lo <= end:
            hi = min(lo + size, end + 1)
            yield lo, hi
            lo, size = hi, min(size * 2, 1 << 20)
    else:
        hi = start + 1
        while hi > end:
            lo = max(hi - size, end)
            yield lo, hi
            hi, size = lo, min(size * 2, 1 << 20)


def event_tool(event: dict[str, Any]) -> str | None:
    """The tool an event is about (see resolve_in), or None."""
    if "tool" in event and isinstance(event["tool"], str):
        return event["tool"]
    if event.get("kind") == "invalid_tool":
        return event.get("requested")
    if event.get("kind") == "step":
        return (event.get("action") or {}).get("tool")
    return None
