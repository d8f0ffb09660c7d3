"""Writes a run as a JSONL trace: a header line, then one event per line, flushed as it happens."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from executor.events import EventBase

from .header import new_header
from .redact import Redactor, default_redactor


class TraceWriter:
    """A listener that appends each event to `<path>.partial` and renames it to `path` on close.

    Every line is flushed as it is written, so if the process dies the .partial file still
    holds every event up to that moment, readable by the loader, and an older file at `path`
    is left whole: the rename is the only moment `path` changes. Each line passes through
    `redactor` first (default: API keys from the environment, bearer tokens, key-shaped
    strings, LOOPSCOPE_REDACT patterns), so a secret never reaches the disk.
    """

    def __init__(self, path: str | os.PathLike[str], redactor: Redactor | None = None,
                 **meta: Any) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.redactor = redactor if redactor is not None else default_redactor()
        self.header = new_header(**meta)  # before any file exists: a bad meta key leaves nothing behind
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.partial, "wb", buffering=0)
        self._write(json.dumps(self.header.to_json_dict(), ensure_ascii=False))
        self.count = 0
        self._last_prompt: dict[tuple[str, ...], tuple[int, str]] = {}

    def _write(self, line: str) -> None:
        if self.redactor.might_contain_secret(line):
            # Redact the decoded value, not the text, so the line stays valid JSON.
            line = json.dumps(self.redactor.redact(json.loads(line)), ensure_ascii=False,
                              separators=(",", ":"))
        # Unbuffered: each event reaches the file in one write() call, the flush that keeps a
        # crashed run's trace readable costs no more than the write itself.
        self._file.write((line + "\n").encode("utf-8"))

    def __call__(self, event: EventBase) -> None:
        self._write(self._encode(event))
        self.count += 1

    def _encode(self, event: EventBase) -> str:
        if event.kind != "llm_start":
            return event.model_dump_json(fallback=repr)
        # A plan prompt is the previous one plus a step, so only the new text is written:
        # "prompt_base" names the earlier llm_start from the same caller, "prompt_append"
        # what follows it. Without this a long run's trace grows with the square of its length.
        previous = self._last_prompt.get(event.frames)
        self._last_prompt[event.frames] = (event.seq, event.prompt)
        if previous is None or len(event.prompt) <= len(previous[1]) or not event.prompt.startswith(previous[1]):
            return event.model_dump_json(fallback=repr)
        base_seq, base = previous
        head = event.model_dump_json(exclude={"prompt"}, fallback=repr)[:-1]
        appended = json.dumps(event.prompt[len(base):], ensure_ascii=False)
        return f'{head},"prompt_base":{base_seq},"prompt_append":{appended}}}'

    def close(self) -> Path:
        if not self._file.closed:
            os.fsync(self._file.fileno())  # the data is on disk before the name points at it
            self._file.close()
            os.replace(self.partial, self.path)
        return self.path

    def discard(self) -> None:
        """Give up on this run: remove the partial file and leave any file at `path` untouched."""
        if not self._file.closed:
            self._file.close()
        self.partial.unlink(missing_ok=True)

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
