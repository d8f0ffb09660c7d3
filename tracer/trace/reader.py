"""Reads JSONL traces: a line index over the file (read by offset), events decoded only when asked for."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from executor.events import (
    EVENT_ADAPTER,
    EVENT_KINDS,
    Event,
    event_from_json,
)

from .annotations import trailing_annotations
from .event_time import time_problem
from .file_bytes import TraceBytes
from .format_error import TraceFormatError
from .header import TraceHeader, header_from
from .literal_text import scrub

PROMPT_CACHE_CHARS = 16 << 20  # whole prompts kept for base+append llm_starts, beyond the newest one
# The events a run that came to an end (well or badly) always finishes with.
RUN_ENDS = frozenset({"chain_end", "chain_error"})


def _dropped_note(origin: Any) -> str | None:
    """What a recorder said it could not record (tracer/bridges/callback_guard.py writes it on the run's
    last event), as one line; None when it dropped nothing. Its reason is trace text: shown literally."""
    dropped = origin.get("dropped") if isinstance(origin, dict) else None
    if not isinstance(dropped, dict) or not isinstance(dropped.get("callbacks"), int):
        return None
    first = scrub(dropped.get("first") or "").replace("\n", " ")[:200]
    return (
        f"{dropped['callbacks']} callback(s) could not be recorded by the LangChain handler (first: {first}); "
        "the trace holds the rest of the run"
    )


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    place = ".".join(str(p) for p in first["loc"]) or "event"
    return f"{place}: {first['msg']}"


class TraceFile:
    """An open trace. `len(trace)` events; `trace[i]` decodes event i on demand (cached).

    Opening reads only the header and scans for newlines, so a million-event file opens in
    a fraction of a second. `warning` is set when the run was cut off (mid-line or between events);
    `notice` when the run is whole but its maker left something out (see __init__).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise TraceFormatError(path, None, "no such file; check the path (traces end in .jsonl)")
        if self.path.is_dir():
            raise TraceFormatError(path, None, "is a directory, not a trace file")
        self._fh = _open_regular(self.path)
        self.import_note: str | None = None  # what an import recognised (for a status line)
        # What the file's maker had to guess or leave out, though the run is whole: an import's orphan
        # spans, a LangChain handler's dropped callbacks. Not a cut-off run (that is `warning`).
        self.notice: str | None = None
        if self._convert_if_foreign():
            self._fh.close()
            self._fh = _open_regular(self.path)  # the converted trace
        size = os.fstat(self._fh.fileno()).st_size
        if size == 0:
            raise TraceFormatError(
                path, None, "the file is empty; record a run into it with `loopscope record AGENT -o FILE`"
            )
        self._bytes = TraceBytes(self._fh.fileno(), self.path, size)
        self.warning: str | None = None
        self._starts, self._ends = _line_spans(self._bytes)
        self.header = self._read_header()
        self._drop_truncated_tail(size)
        # Scores appended after the run (annotations.py) are the run's scores, not events.
        kept, self.scores = trailing_annotations(len(self._starts), self._raw)
        self._starts, self._ends = self._starts[:kept], self._ends[:kept]
        self.warning = self.warning or self._unfinished_run()
        self._prompts: dict[int, str] = {}  # event index -> whole prompt, for base+append llm_starts
        self._prompt_chars = 0
        self._decode = lru_cache(maxsize=4096)(self._decode_uncached)

    def _convert_if_foreign(self) -> bool:
        """Another tool's export (OTLP JSON, LangSmith, Langfuse) is converted, and the conversion read."""
        first = self._fh.readline(1 << 16).removeprefix(b"\xef\xbb\xbf").strip()  # less a UTF-8 BOM
        self._fh.seek(0)
        if first[:1] not in (b"{", b"[") or b'"loopscope-trace"' in first:
            return False  # looks_foreign's own first test, without loading the importers (and the writer)
        # Late: the importers load the writer, which opening a loopscope trace does not need.
        from .importers import looks_foreign, opened_as_loopscope

        foreign = looks_foreign(self._fh)
        self._fh.seek(0)
        if not foreign:
            return False
        source = self.path
        self.path, conversion = opened_as_loopscope(source)
        self.import_note = f"imported {source.name}: {conversion.recognised}"
        self.notice = " · ".join(conversion.notes) or None  # what could not be read, what became only frames
        return True

    # -- header and tail ------------------------------------------------------------------
    def _raw(self, index: int) -> bytes:
        return self._bytes.read(int(self._starts[index]), int(self._ends[index]))

    def _read_header(self) -> TraceHeader:
        try:
            decoded = json.loads(self._raw(0))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TraceFormatError(self.path, 1, "not a loopscope trace: the first line is not JSON") from None
        try:
            return header_from(decoded)
        except ValueError as error:
            raise TraceFormatError(self.path, 1, str(error)) from None

    def _drop_truncated_tail(self, size: int) -> None:
        last = len(self._starts) - 1
        if last < 1 or int(self._ends[last]) != size:
            return  # the file ends with a newline: nothing was cut off
        try:
            json.loads(self._raw(last))
        except (json.JSONDecodeError, UnicodeDecodeError):
            self._starts, self._ends = self._starts[:-1], self._ends[:-1]
            self.warning = (
                f"{self.path}:{last + 1}: the last line is cut off (the run was "
                f"interrupted); showing the {last - 1} complete events before it"
            )

    def _unfinished_run(self) -> str | None:
        """A warning when the file ends cleanly between events, before the run's last one (kill -9)."""
        if len(self) == 0:
            return f"{self.path}: the file has a header and no events (the run was interrupted before its first event)"
        try:
            last = json.loads(self.raw_line(len(self) - 1))
            kind = last.get("kind")
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            return None  # a bad last line is reported when it is decoded
        if kind in RUN_ENDS:
            self.notice = self.notice or _dropped_note(last.get("origin"))
            return None
        return (
            f"{self.path}: the run was interrupted: it stops after event {len(self) - 1} "
            f"({kind!s:.40}) with no chain_end or chain_error; showing the {len(self)} events it has"
        )

    # -- events ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._starts) - 1

    def raw_line(self, index: int) -> bytes:
        """The undecoded JSON of event `index`, for cheap scans."""
        return self._raw(index + 1)

    def release_lines(self, first: int, count: int) -> None:
        """Kept for callers that scan every line: the file is read by offset (see file_bytes.py), so no
        page of it stays in this process's memory and there is nothing to release."""
        del first, count

    def fields(self, index: int) -> dict[str, Any]:
        """Event `index` as a plain dict, whole prompt included, without model validation (fast)."""
        raw = self.raw_line(index)
        if b'"prompt_base"' in raw:
            fields = self._with_full_prompt(raw, index + 2)
        else:
            fields = self._json_fields(raw, index + 2)
        problem = time_problem(fields.get("t")) if isinstance(fields, dict) else None
        if problem:
            raise TraceFormatError(self.path, index + 2, problem)
        return fields

    def _json_fields(self, raw: bytes, line_no: int) -> Any:
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TraceFormatError(self.path, line_no, "not valid JSON") from None

    def _decode_uncached(self, index: int) -> Event:
        line_no = index + 2
        event = self._validated(index, line_no)
        problem = time_problem(event.t)
        if problem:
            raise TraceFormatError(self.path, line_no, problem)
        return event

    def _validated(self, index: int, line_no: int) -> Event:
        raw = self._raw(index + 1)
        if not raw.strip():
            raise TraceFormatError(self.path, line_no, "blank line where an event was expected")
        try:
            if b'"prompt_base"' in raw:
                return EVENT_ADAPTER.validate_python(self._with_full_prompt(raw, line_no))
            return event_from_json(raw)
        except ValidationError as error:
            if error.errors()[0]["type"] == "json_invalid":
                if b"\\ud" in raw:  # a lone surrogate \u-escaped (see line_encoder.pydantic_json): valid JSON
                    return self._decoded_by_json_module(raw, line_no)
                raise TraceFormatError(self.path, line_no, "not valid JSON") from None
            kind = _peek_kind(raw)
            if kind is not None and kind not in EVENT_KINDS:
                raise TraceFormatError(self.path, line_no, f"unknown event kind {kind!r}") from None
            raise TraceFormatError(self.path, line_no, f"invalid event: {_first_error(error)}") from None

    def _decoded_by_json_module(self, raw: bytes, line_no: int) -> Event:
        try:
            return EVENT_ADAPTER.validate_python(json.loads(raw))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TraceFormatError(self.path, line_no, "not valid JSON") from None
        except ValidationError as error:
            raise TraceFormatError(self.path, line_no, f"invalid event: {_first_error(error)}") from None

    def _with_full_prompt(self, raw: bytes, line_no: int) -> dict[str, Any]:
        """An llm_start written as base + append (see TraceWriter), with its whole prompt put back."""
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TraceFormatError(self.path, line_no, "not valid JSON") from None
        base, appended = data.pop("prompt_base"), data.pop("prompt_append", None)
        if not (isinstance(base, int) and 0 <= base < line_no - 2 and isinstance(appended, str)):
            raise TraceFormatError(self.path, line_no, f"prompt_base {base!r} does not name an earlier event")
        data["prompt"] = self._prompt_of(base) + appended
        return data

    def _prompt_of(self, wanted: int) -> str:
        # Walk back along the bases to a known whole prompt, then rebuild forwards: no
        # recursion, so a ten-thousand-round run resolves as easily as a three-round one.
        chain: list[str] = []
        index = wanted
        while index not in self._prompts:
            data = json.loads(self._raw(index + 1))
            if data.get("kind") != "llm_start":
                raise TraceFormatError(self.path, index + 2, "prompt_base points at an event that is not llm_start")
            if "prompt_base" not in data:
                self._remember_prompt(index, data["prompt"])
                break
            chain.append(data["prompt_append"])
            index = data["prompt_base"]
        prompt = self._prompts[index]
        for appended in reversed(chain):
            prompt += appended
        self._remember_prompt(wanted, prompt)
        return prompt

    def _remember_prompt(self, index: int, prompt: str) -> None:
        # Bounded in number and in size (whole prompts can be 100 MB): the newest is always kept, as
        # the next prompt of the same caller is usually built on it.
        if len(self._prompts) >= 64 or self._prompt_chars + len(prompt) > PROMPT_CACHE_CHARS:
            self._prompts.clear()
            self._prompt_chars = 0
        self._prompts[index] = prompt
        self._prompt_chars += len(prompt)

    def __getitem__(self, index: int) -> Event:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"event {index} is out of range (0..{len(self) - 1})")
        return self._decode(index)

    def __iter__(self) -> Iterator[Event]:
        for index in range(len(self)):
            yield self[index]

    def decoded(self, index: int) -> Event:
        """Event `index` decoded now and not kept (trace[i] keeps the last 4,096: a big event stays)."""
        return self._decode_uncached(index)

    def each(self) -> Iterator[Event]:
        """Every event in order, validated, none kept: memory for one event at a time."""
        for index in range(len(self)):
            yield self._decode_uncached(index)

    def events(self) -> list[Event]:
        """Every event, validated (raises TraceFormatError at the first bad line)."""
        return [self._decode_uncached(i) for i in range(len(self))]

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> TraceFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open_regular(path: Path):
    """Open for reading, refusing a FIFO or device (O_NONBLOCK: opening a FIFO must not hang)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise TraceFormatError(path, None, f"cannot open: {error.strerror or error}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise TraceFormatError(
            path, None, "is not a regular file (a pipe or a device?); save the trace to a file first"
        )
    return os.fdopen(fd, "rb")


SCAN_CHUNK = 16 * 1024 * 1024


# Below this a trace's lines are found with bytes.find into plain lists: numpy's import
# would cost more than the scan, and the first frame of a tutorial waits for it.
SMALL_TRACE = 4 * 1024 * 1024


def _line_spans(data: TraceBytes) -> tuple[Any, Any]:
    """(start, end) offsets of every line; a last line with no newline (maybe cut off mid-write) ends at the size."""
    size = data.size
    if size <= SMALL_TRACE:
        whole = data.read(0, size)
        ends, at = [], whole.find(b"\n")
        while at != -1:
            ends.append(at)
            at = whole.find(b"\n", at + 1)
        if not ends or ends[-1] != size - 1:
            ends.append(size)
        return [0, *(end + 1 for end in ends[:-1])], ends
    import numpy as np  # only a large trace needs it (see SMALL_TRACE)

    found = _newline_offsets(data)
    if len(found) == 0 or int(found[-1]) != size - 1:
        found = np.append(found, size)
    return np.concatenate(([0], found[:-1] + 1)).astype(np.int64), found.astype(np.int64)


def _newline_offsets(data: TraceBytes) -> Any:
    """Offsets of every newline, found 16 MB at a time: a 460 MB trace is indexed in well under 100 MB."""
    import numpy as np  # only a large trace gets here (see SMALL_TRACE)

    found = [
        np.flatnonzero(np.frombuffer(chunk, dtype=np.uint8) == 10).astype(np.int64) + start
        for start, chunk in data.chunks(SCAN_CHUNK)
    ]
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _peek_kind(raw: bytes) -> str | None:
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return value.get("kind") if isinstance(value, dict) else None


def load_trace(path: str | os.PathLike[str]) -> tuple[TraceHeader, list[Event], str | None]:
    """Header, every event (validated), and the truncation warning (or else the notice) if any."""
    with TraceFile(path) as trace:
        return trace.header, trace.events(), trace.warning or trace.notice
