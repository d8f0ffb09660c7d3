"""A compact per-event index of a trace (kind, iteration, tool, call stack, source line), built without validating events."""

from __future__ import annotations

import io
import json
import os
import zipfile
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from executor.events import EventBase

from .event_shape import (
    EventShape,
    Unusual,
    envelopes,
    event_tool,  # noqa: F401  (still importable from here)
    shape_from_tail,
    shape_of,
)
from .index_archive import read_index_archive
from .numpy_on_use import np
from .reader import TraceFile
from .sidecar import SidecarRefused, loads_json, read_sidecar, write_sidecar

# Up to this many events an index is kept in Python arrays and numpy is imported only when a
# breakpoint, filter or step asks for a mask: a tutorial's first frame needs none, and does not
# wait for numpy's import. Bigger traces are scanned into numpy arrays directly.
SMALL_INDEX = 50_000
Progress = Callable[[float], None]


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
        if (
            not all(isinstance(item[name], kind) for name, kind in _SHAPE_FIELDS.items())
            or not (item["tool"] is None or isinstance(item["tool"], str))
            or not (isinstance(item["frames"], list) and all(isinstance(f, str) for f in item["frames"]))
        ):
            raise ValueError("a shape has a field of the wrong type")
        shapes.append(EventShape(**{**item, "frames": tuple(item["frames"])}))
    return shapes


def _check_arrays(codes: np.ndarray, iterations: np.ndarray, total: int, shapes: int) -> None:
    for name, values in (("codes", codes), ("iterations", iterations)):
        if values.ndim != 1 or values.dtype.kind not in "iu" or len(values) != total:
            raise ValueError(f"{name} is not {total} whole numbers")
    if total and (codes.min() < 0 or codes.max() >= shapes):
        raise ValueError("a shape code points at no shape")
    if total and (iterations.min() < 0 or np.any(np.diff(iterations) < 0)):
        raise ValueError("iterations go backwards")


class TraceIndex:
    """Per event: a shape code and the iteration. Grows in place for live runs.

    The codes and iterations are numpy arrays for a big scanned trace, else Python int32 arrays
    (`array`), copied to numpy the first time a method that answers with arrays is asked.
    """

    def __init__(self) -> None:
        self.shapes: list[EventShape] = []
        self._shape_ids: dict[EventShape, int] = {}
        self._codes: Any = array("i")
        self._iterations: Any = array("i")
        self._numpy: tuple[Any, Any] | None = None  # the arrays as numpy, while no event is added
        self._tables: dict[str, np.ndarray] = {}
        self._positions: dict[str, Any] = {}  # kind -> sorted positions (a list, or an array)

    # -- building ---------------------------------------------------------------------------
    @classmethod
    def build(cls, trace: TraceFile, progress: Progress | None = None) -> TraceIndex:
        """Index every event of an open trace: a fast scan of the raw bytes, JSON per line as fallback."""
        index = cls.scan(trace.path, len(trace), progress)
        if index is None:
            index = cls()
            for position in range(len(trace)):
                event = _decoded(trace, position)
                index._add(shape_of(event), int(event["iteration"]))
        return index

    @classmethod
    def scan(cls, path: str | os.PathLike[str], total: int, progress: Progress | None = None) -> TraceIndex | None:
        """The fast scan alone (needs no TraceFile, so it can run in another process).

        None when some line is not in TraceWriter's layout; then use build().
        """
        small = total <= SMALL_INDEX
        iterations: list[Any] = []
        codes: list[Any] = []
        tails: dict[bytes, int] = {}
        found = 0
        for matches in envelopes(path):
            chunk_codes = [tails.setdefault(tail, len(tails)) for _it, tail in matches]
            if small:
                iterations.append(array("i", [int(it) for it, _tail in matches]))
                codes.append(array("i", chunk_codes))
            else:
                iterations.append(np.array([it for it, _tail in matches]).astype(np.int32))
                codes.append(np.array(chunk_codes, dtype=np.int32))
            found += len(matches)
            if progress:
                progress(min(1.0, found / max(total, 1)))
            if found >= total:
                break
        if found < total:
            return None
        try:
            shapes = [shape_from_tail(t) for t in tails]
        except Unusual:
            return None
        index = cls()
        if small:
            index._load(_joined(codes)[:total], _joined(iterations)[:total], shapes)
        else:
            index._load(
                np.concatenate(codes)[:total] if codes else np.zeros(0, np.int32),
                np.concatenate(iterations)[:total] if iterations else np.zeros(0, np.int32),
                shapes,
            )
        return index

    # -- a cache next to big traces, so reopening one is instant ------------------------------
    @classmethod
    def cached(cls, path: str | os.PathLike[str], total: int) -> TraceIndex | None:
        """The index saved by save_cache, if it is there, whole, and the trace has not changed since."""
        return cls.load_cache(path, total)[0]

    @classmethod
    def load_cache(cls, path: str | os.PathLike[str], total: int) -> tuple[TraceIndex | None, str | None]:
        """(index or None, why the cache next to the trace was not used, or None when there was none).

        The cache is untrusted: a planted link, a FIFO, a giant, a bad zip, arrays of the
        wrong shape or another trace's index all mean "rebuild", with the reason as a warning.
        """
        try:
            limit = MAX_CACHE_BYTES_PER_EVENT * total + (1 << 20)  # on the file, then on what it inflates to
            raw = read_sidecar(cache_path(path), limit)
            if raw is None:
                return None, None
            saved = read_index_archive(raw, limit, total)
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
        codes, iterations = self._arrays()
        np.savez(out, stamp=stamp, codes=codes, iterations=iterations, shapes=np.array(shapes))
        try:
            write_sidecar(cache_path(path), out.getvalue())
        except (OSError, SidecarRefused):
            pass  # best effort (see the docstring): the next open scans again

    @classmethod
    def scan_and_cache(cls, path: str | os.PathLike[str], total: int) -> TraceIndex | None:
        stamp = _stamp(path)  # taken first: a trace that changes during the scan is not cached as it was
        index = cls.scan(path, total)
        if index is not None:
            index.save_cache(path, stamp)
        return index

    def _load(self, codes: Any, iterations: Any, shapes: list[EventShape]) -> None:
        """Take scanned codes and iterations: Python arrays (a small trace) or numpy arrays."""
        # Equal shapes from different tails (e.g. escaped vs raw text) collapse to one id.
        ids = [self._shape_id(s) for s in shapes]
        if isinstance(codes, array):
            self._codes = array("i", [ids[code] for code in codes])
        else:
            self._codes = np.array(ids or [0], dtype=np.int32)[codes] if len(codes) else codes
            self._numpy = (self._codes, iterations)
        self._iterations = iterations

    def _shape_id(self, shape: EventShape) -> int:
        code = self._shape_ids.get(shape)
        if code is None:
            code = self._shape_ids[shape] = len(self.shapes)
            self.shapes.append(shape)
            self._tables.clear()
        return code

    def _add(self, shape: EventShape, iteration: int) -> None:
        if not isinstance(self._codes, array):  # a scanned trace's numpy arrays: grow a copy
            self._codes, self._iterations = array("i", self._codes.tolist()), array("i", self._iterations.tolist())
        self._codes.append(self._shape_id(shape))
        self._iterations.append(iteration)
        self._numpy = None
        self._positions.clear()

    def append(self, event: EventBase) -> None:
        """Add one event of a live run."""
        self._add(shape_of(event.model_dump(mode="json")), event.iteration)

    # -- reading ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._codes)

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(codes, iterations) as numpy arrays (copied once from Python arrays, until an event is added)."""
        if self._numpy is None:
            self._numpy = (np.array(self._codes, dtype=np.int32), np.array(self._iterations, dtype=np.int32))
        return self._numpy

    def shape(self, position: int) -> EventShape:
        return self.shapes[int(self._codes[position])]

    def kind(self, position: int) -> str:
        return self.shape(position).kind

    def depth(self, position: int) -> int:
        return self.shape(position).depth

    def iteration(self, position: int) -> int:
        return int(self._iterations[position])

    def shape_codes(self, lo: int, hi: int) -> np.ndarray:
        return self._arrays()[0][lo:hi]

    def iterations(self, lo: int, hi: int) -> np.ndarray:
        return self._arrays()[1][lo:hi]

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
        return self.table(name)[self.shape_codes(lo, len(self) if hi is None else hi)]

    def shape_mask(self, predicate: Callable[[EventShape], bool], lo: int, hi: int) -> np.ndarray:
        table = np.array([bool(predicate(s)) for s in self.shapes] + [False], dtype=bool)
        return table[self.shape_codes(lo, hi)]

    def first_with_code(self, code: int) -> int | None:
        """The first event whose shape code is `code`, or None."""
        if isinstance(self._codes, array):
            return self._codes.index(code) if code in self._codes else None
        for lo, hi in scan_windows(0, len(self) - 1, 1):
            hits = np.flatnonzero(self._codes[lo:hi] == code)
            if len(hits):
                return lo + int(hits[0])
        return None

    def _found(self, kind: str) -> Any:
        """Sorted positions of every event of `kind`: a list for Python arrays, else a numpy array."""
        if kind not in self._positions:
            if isinstance(self._codes, array):
                codes = {code for code, shape in enumerate(self.shapes) if shape.kind == kind}
                self._positions[kind] = [p for p, code in enumerate(self._codes) if code in codes]
            else:
                self._positions[kind] = np.flatnonzero(self.shape_mask(lambda s: s.kind == kind, 0, len(self)))
        return self._positions[kind]

    def positions(self, kind: str) -> np.ndarray:
        """Sorted positions of every event of `kind`."""
        return np.asarray(self._found(kind), dtype=np.intp)

    def nth(self, kind: str, number: int) -> int:
        """The position of the event of `kind` numbered `number` (0-based; no numpy for a small index)."""
        return int(self._found(kind)[number])

    def position_list(self, kind: str) -> list[int]:
        """positions(kind) as a list of ints (no numpy for a small index)."""
        found = self._found(kind)
        return list(found) if isinstance(found, list) else found.tolist()

    def count(self, kind: str) -> int:
        """How many events of `kind` there are."""
        return len(self._found(kind))

    # bisect, not np.searchsorted: the same answers on a list or an array, and no numpy for a small index.
    def last_before(self, kind: str, position: int, lo: int = 0) -> int | None:
        """The last event of `kind` at or before `position` and at or after `lo`."""
        found = self._found(kind)
        at = bisect_right(found, position) - 1
        return int(found[at]) if at >= 0 and found[at] >= lo else None

    def count_before(self, kind: str, position: int) -> int:
        """How many events of `kind` are at or before `position`."""
        return bisect_right(self._found(kind), position)

    def iteration_start(self, position: int) -> int:
        """The first event of the iteration `position` is in (iterations never go down in a run)."""
        return bisect_left(self._iterations, self._iterations[position], 0, len(self))


def _joined(parts: list[Any]) -> Any:
    joined = array("i")
    for part in parts:
        joined.extend(part)
    return joined


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
