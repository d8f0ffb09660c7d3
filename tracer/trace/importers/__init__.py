"""Other tools' traces (OTLP JSON, LangSmith and Langfuse exports) converted to loopscope traces, one per trace id."""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from ..annotations import append_score
from ..redact import Redactor
from ..writer import TraceWriter
from .folder import FolderImport, Written, file_name, trace_meta, written_one_by_one
from .imported import Imported, ImportProblem
from .reading import MAX_OTLP_BYTES, MAX_WHOLE_BYTES, SUPPORTED, read
from .spans import Conversion

Progress = Callable[[str, int, int], None]  # (what, done, of how many): a progress bar's report

__all__ = [
    "MAX_OTLP_BYTES",
    "MAX_WHOLE_BYTES",
    "SUPPORTED",
    "Conversion",
    "FolderImport",
    "ImportProblem",
    "Imported",
    "Written",
    "convert",
    "convert_all",
    "file_name",
    "import_to_folder",
    "looks_foreign",
    "opened_as_loopscope",
    "write_conversion",
    "write_folder",
]


def convert_all(path: str | os.PathLike[str], progress: Progress | None = None) -> Imported:
    """Read another tool's trace file: its traces, one per trace id, each converted to loopscope
    events when asked for (ImportProblem, one line, when the file is none of the known exports).
    What has the wrong type (a list that is a string, a time that is no time) is left out and said
    in the warnings; the file is refused only when nothing in it can be read. `progress` hears
    (what, done, of how many) as a big file is read: the command's progress bar."""
    return read(Path(path), progress)


def convert(path: str | os.PathLike[str], trace_id: str | None = None) -> Conversion:
    """One trace of another tool's file: the only one, or the one `trace_id` names (ImportProblem,
    listing the ids, when the file holds several and none is named, or the id is not there)."""
    return convert_all(path).pick(trace_id)


def looks_foreign(handle: BinaryIO) -> bool:
    """True for JSON that is not a loopscope trace (an export to convert); reads the open file's first
    lines. A loopscope trace, even a broken one or one missing its header, is left to the trace reader."""
    first = handle.readline(1 << 16).removeprefix(codecs.BOM_UTF8).strip()  # a BOM some Windows tools write
    second = handle.readline(1 << 16)
    if first[:1] not in (b"{", b"[") or b'"loopscope-trace"' in first:
        return False
    try:
        decoded = json.loads(first)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        # Pretty-printed JSON (its first line is only the opening bracket), or one nested too deeply
        # for the json module: the importers read it and say what it is. Bytes that merely start with
        # a bracket (a binary file) are not text, and the trace reader says so.
        return _is_text(first)
    if isinstance(decoded, dict) and ("kind" in decoded or "format" in decoded):
        return False
    # A loopscope trace whose header line is damaged still has events after it.
    return b'"kind"' not in second or not isinstance(decoded, dict)


def _is_text(line: bytes) -> bool:
    """UTF-8 without control characters other than tab: what a JSON file's first line is."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any((ch < " " and ch != "\t") or ch == "\x7f" for ch in text)


def write_conversion(
    conversion: Conversion,
    source: Path,
    out: str | os.PathLike[str],
    redactor: Redactor | None = None,
    sync: bool = True,
    progress: Progress | None = None,
) -> Path:
    """The conversion as a loopscope trace file (redacted as every trace is; see TraceWriter);
    `progress` hears how many events are written, of how many."""
    with TraceWriter(out, redactor=redactor, sync=sync, **trace_meta(conversion, source)) as writer:
        for count, event in enumerate(conversion.events):
            if progress is not None and count % 2_000 == 0:
                progress("writing events", count, len(conversion.events))
            writer(event)
    for score in conversion.scores:  # after the events, as `loopscope score` adds them
        append_score(out, score)
    return Path(out)


def write_folder(imported: Imported, folder: str | os.PathLike[str]) -> Iterator[Written]:
    """Each trace of the file written to `folder` as it is converted (one in memory at a time)."""
    return written_one_by_one(imported, folder)


def import_to_folder(
    path: str | os.PathLike[str], folder: str | os.PathLike[str], progress: Progress | None = None
) -> FolderImport:
    """Read another tool's trace file (ImportProblem, one line, when it cannot be) for writing each of
    its traces into `folder`, one file per trace id, as `written` is iterated; `progress` hears the read."""
    imported = convert_all(path, progress)
    return FolderImport(imported.label, len(imported), written_one_by_one(imported, folder))


def opened_as_loopscope(
    path: str | os.PathLike[str], trace_id: str | None = None, imported: Imported | None = None
) -> tuple[Path, Conversion]:
    """The file's trace (the only one, or the one `trace_id` names) converted into a temporary
    loopscope trace, and what the conversion made of it; `imported` when the file was read already."""
    path = Path(path)
    conversion = (imported or convert_all(path)).pick(trace_id)
    key = f"{path.resolve()}:{path.stat().st_mtime_ns}:{conversion.trace_id}"
    stamp = hashlib.sha256(key.encode()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / "loopscope-imports" / f"{path.stem}-{stamp}.jsonl"
    return write_conversion(conversion, path, out), conversion
