"""Writes a run as a JSONL trace: a header line, then one event per line, flushed as it happens."""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from executor.events import EventBase

from .header import new_header
from .kept_partial import INTERRUPTED, keep_partial
from .line_maker import LineMaker
from .redact import Redactor, default_redactor

# Kinds after which the loop goes straight on to its next event, without waiting on anything
# outside the process. Their lines wait in the buffer; any other kind (a model call or a tool
# about to run, a backoff, the end of the run, a kind not known here) writes the buffer out. So
# whenever the run waits, and so whenever it can be killed at leisure, the file holds every event.
RUNS_STRAIGHT_ON = frozenset(
    {
        "chain_start",
        "llm_end",
        "agent_action",
        "agent_finish",
        "step",
        "finish_check",
        "tool_end",
        "invalid_tool",
        "parse_error",
        "limit_reached",
    }
)


_MAX_PENDING = 256  # lines gathered at most before a write, however long the run goes without waiting


class TraceWriteError(Exception):
    """The trace could not be written; one line naming the file, what failed and what was kept."""


class TraceWriter:
    """A listener that appends each event to its own temporary file and renames it to `path` on close.

    Each writer gets a fresh `<name>.<random>.partial` (created with O_EXCL), so two runs
    writing the same path never share a file, and `close()` notices when another run
    replaced `path` while this one was recording. Events reach the page cache before the run
    next waits on a model, a tool or a backoff (see RUNS_STRAIGHT_ON), or after every event with
    `flush="event"` (a listener that pauses the run, as the live debugger does), or in writes of
    _MAX_PENDING lines with `flush="close"` (an import: nothing waits, and an interrupted trace is
    discarded); fsync only at close, and not at all with `sync=False` (an import writing thousands
    of traces from a file that stays on disk: losing them to a crash loses nothing that cannot be
    made again). So a killed process leaves a readable prefix holding every event up to its wait. A failed
    write never reaches the run: the writer stops, and `close()` raises TraceWriteError with
    the old file left as it was. An interrupted run is `abandon()`ed: the old file stays, and
    the partial one is kept as `<name>.interrupted` (`<stem>.2.jsonl.interrupted` … beside an
    earlier one). Lines pass through `redactor` first (API keys from the environment, bearer
    tokens, key-shaped strings, LOOPSCOPE_REDACT).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        redactor: Redactor | None = None,
        flush: str = "wait",
        sync: bool = True,
        **meta: Any,
    ) -> None:
        if flush not in ("wait", "event", "close"):
            raise ValueError(f"flush must be 'wait', 'event' or 'close', got {flush!r}")
        self.path = Path(path)
        self.sync = sync
        self._flush_after = RUNS_STRAIGHT_ON if flush == "wait" else frozenset()
        self._waits = flush != "close"  # a trace written from a finished source: no event makes a write
        self.redactor = redactor if redactor is not None else default_redactor()
        self.header = new_header(**meta)  # before any file exists: a bad meta key leaves nothing behind
        self.count = 0
        self.failure: str | None = None  # why writing stopped, if it did
        self.kept: Path | None = None  # where an abandoned run's partial file went
        self.lines = LineMaker(self.redactor)
        self._target_before = _identity(self.path)
        self._make_line = self.lines.make
        # Lines since the run last waited; written out, in one write(), before it next waits.
        self._pending: list[bytes] = []
        self.partial, self._file = self._open_partial()
        self._pending.append(
            json.dumps(self.header.to_json_dict(), ensure_ascii=False).encode("utf-8", "replace") + b"\n"
        )
        self._writing = True
        if self._waits:  # the file shows its header at once (a live run may be watched)
            self.flush()
        if self.failure:
            self.partial.unlink(missing_ok=True)
            raise TraceWriteError(f"cannot write {self.partial}: {self.failure}")

    def _open_partial(self):
        try:
            mode = self._target_before[2] if self._target_before is not None else None
            # lstat said what is there: only a link needs a second look (is_dir follows it).
            if mode is not None and (stat.S_ISDIR(mode) or (stat.S_ISLNK(mode) and self.path.is_dir())):
                raise TraceWriteError(f"{self.path} is a directory; give a file name such as {self.path / 'run.jsonl'}")
            if mode is not None and not stat.S_ISREG(mode):
                raise TraceWriteError(f"{self.path} exists and is not a regular file; choose another name")
            partial = self.path.with_name(f"{self.path.name}.{secrets.token_hex(4)}.partial")
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            try:
                fd = os.open(partial, flags, 0o644)
            except FileNotFoundError:  # the folder is not there yet (asked for only then: an import opens thousands)
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(partial, flags, 0o644)
        except OSError as error:
            raise TraceWriteError(f"cannot write a trace at {self.path}: {error.strerror or error}") from None
        # Unbuffered: the writer gathers a wait's worth of lines itself (see flush).
        return partial, os.fdopen(fd, "wb", buffering=0)

    def flush(self) -> None:
        """Write out the gathered lines now, to the page cache (a listener about to pause the run calls this)."""
        if not self._writing or not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        try:
            while data:  # an unbuffered write may take only part of it
                data = data[self._file.write(data) :]
        except OSError as error:
            self.failure = error.strerror or str(error)
            self._give_up_file()

    def __call__(self, event: EventBase) -> None:
        if not self._writing:
            return
        try:
            self._pending.append(self._make_line(event))
        except Exception as error:  # the trace is a bystander: it must never change the run
            self.failure = f"{type(error).__name__}: {error}"
            self._give_up_file()
            return
        self.count += 1
        if (self._waits and event.kind not in self._flush_after) or len(self._pending) >= _MAX_PENDING:
            self.flush()  # so a killed process leaves every line up to this wait behind

    def _give_up_file(self) -> None:
        self._writing = False
        try:
            self._file.close()
        except OSError:
            pass  # already failed: the failure was recorded, the file is given up either way

    def close(self) -> Path:
        """Finish the trace: on disk, then renamed to `path`. Raises TraceWriteError if it cannot be."""
        if self.kept is not None:
            return self.kept
        self.flush()  # what waited for the run's next wait (a failure here gives the file up)
        if not self._file.closed:
            self._writing = False
            try:
                if self.sync:
                    os.fsync(self._file.fileno())  # the data is on disk before the name points at it
                self._file.close()
            except OSError as error:
                self.failure = self.failure or error.strerror or str(error)
                self._give_up_file()
        if self.failure:
            kept = self._keep_partial(".failed")
            raise TraceWriteError(f"could not write {self.path} ({self.failure}); {self._old_file_words()}{kept}")
        if not self.partial.exists():
            return self.path  # already renamed by an earlier close()
        self._rename_into_place()
        return self.path

    def _rename_into_place(self) -> None:
        now = _identity(self.path)
        if now != self._target_before:
            kept = self._keep_partial(".lost")
            raise TraceWriteError(f"another run wrote {self.path} while this one was recording; theirs was kept{kept}")
        if self._target_before is None:
            try:  # link() refuses an existing name, so a run that got there first is never overwritten
                os.link(self.partial, self.path)
                self.partial.unlink()
                return
            except FileExistsError:
                kept = self._keep_partial(".lost")
                raise TraceWriteError(
                    f"another run wrote {self.path} while this one was recording; theirs was kept{kept}"
                ) from None
            except OSError as error:
                if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                    raise
        os.replace(self.partial, self.path)

    def abandon(self) -> Path | None:
        """Give up on an interrupted run: `path` is left as it was, the partial file kept as `<name>.interrupted`
        (numbered when an earlier run's is there: see kept_partial)."""
        self.flush()  # every event the run got to, including those waiting for its next wait
        self._give_up_file()
        if self.kept is None and self.partial.exists():
            self.kept = keep_partial(self.partial, self.path, INTERRUPTED)
        return self.kept

    def interrupted_words(self) -> str:
        """What an interruption did to the files, for the one-line message."""
        kept = f"; the partial run is in {self.kept}" if self.kept else ""
        return f"{self.path} was left as it was{kept}" if self._target_before else f"no trace was written{kept}"

    def discard(self) -> None:
        """Give up on this run: remove the partial file and leave any file at `path` untouched."""
        self._give_up_file()
        self.partial.unlink(missing_ok=True)

    def _keep_partial(self, suffix: str) -> str:
        try:
            if self.partial.exists() and self.partial.stat().st_size > 0:
                self.kept = keep_partial(self.partial, self.path, suffix)
                return f"; this run's partial trace is in {self.kept}"
            self.partial.unlink(missing_ok=True)
        except OSError:
            pass  # keeping the partial file is a courtesy: the one-line error is said regardless
        return ""

    def _old_file_words(self) -> str:
        return f"{self.path} was left as it was" if self._target_before else "no trace was written"

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.close()
        else:  # interrupted (Ctrl-C) or failed: the old trace must survive the half-finished one
            self.abandon()


def _identity(path: Path) -> tuple[int, int, int, int, int] | None:
    """What `path` is now (device, inode, mode, size, mtime); None when nothing is there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns
