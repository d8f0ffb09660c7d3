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
from .line_encoder import encode_event, encode_fields, event_fields
from .redact import Redactor, default_redactor


# Kinds that only rearrange text an earlier line already carried (the model's reply, a tool's
# result) or text of the program itself. While no screened line has looked like it holds a
# secret, these are written unscreened; once one has, every line is screened. Every other kind,
# including kinds this list does not know yet, is screened: that is where outside text enters.
DERIVED = frozenset({"agent_action", "agent_finish", "tool_start", "step", "finish_check",
                     "rate_limit_wait"})
# The busiest kinds carry outside text in a few known fields: only those are screened (the
# prompt's new text only: its start was screened in an earlier line), not the whole JSON line.
# A secret found there taints the writer, and the whole line is redacted as below.
SCREENED_FIELDS = {"llm_start": ("model",), "llm_end": ("text", "answered_by", "finish_reason", "refusal"),
                   "tool_end": ("tool", "observation")}
# ...unless the event holds outside text elsewhere as well (messages, tools, tool calls).
_UNSCREENED_UNLESS_NONE = {"llm_start": ("messages", "tools"), "llm_end": ("tool_calls",), "tool_end": ()}

# Kinds after which the loop goes straight on to its next event, without waiting on anything
# outside the process. Their lines wait in the buffer; any other kind (a model call or a tool
# about to run, a backoff, the end of the run, a kind not known here) writes the buffer out. So
# whenever the run waits, and so whenever it can be killed at leisure, the file holds every event.
RUNS_STRAIGHT_ON = frozenset({"chain_start", "llm_end", "agent_action", "agent_finish", "step", "finish_check",
                              "tool_end", "invalid_tool", "parse_error", "limit_reached"})


class TraceWriteError(Exception):
    """The trace could not be written; one line naming the file, what failed and what was kept."""


class TraceWriter:
    """A listener that appends each event to its own temporary file and renames it to `path` on close.

    Each writer gets a fresh `<name>.<random>.partial` (created with O_EXCL), so two runs
    writing the same path never share a file, and `close()` notices when another run
    replaced `path` while this one was recording. Events reach the page cache before the run
    next waits on a model, a tool or a backoff (see RUNS_STRAIGHT_ON), or after every event with
    `flush="event"` (a listener that pauses the run, as the live debugger does); fsync only at
    close. So a killed process leaves a readable prefix holding every event up to its wait. A failed
    write never reaches the run: the writer stops, and `close()` raises TraceWriteError with
    the old file left as it was. An interrupted run is `abandon()`ed: the old file stays, and
    the partial one is kept as `<name>.interrupted`. Lines pass through `redactor` first
    (API keys from the environment, bearer tokens, key-shaped strings, LOOPSCOPE_REDACT).
    """

    def __init__(self, path: str | os.PathLike[str], redactor: Redactor | None = None,
                 flush: str = "wait", **meta: Any) -> None:
        if flush not in ("wait", "event"):
            raise ValueError(f"flush must be 'wait' or 'event', got {flush!r}")
        self.path = Path(path)
        self._flush_after = RUNS_STRAIGHT_ON if flush == "wait" else frozenset()
        self.redactor = redactor if redactor is not None else default_redactor()
        self.header = new_header(**meta)  # before any file exists: a bad meta key leaves nothing behind
        self.count = 0
        self.failure: str | None = None  # why writing stopped, if it did
        self.kept: Path | None = None  # where an abandoned run's partial file went
        self._last_prompt: dict[tuple[str, ...], tuple[int, str]] = {}
        self._tainted = False  # has any screened line looked like it holds a secret?
        self._target_before = _identity(self.path)
        self.partial, self._file = self._open_partial()
        self._write(json.dumps(self.header.to_json_dict(), ensure_ascii=False).encode("utf-8", "replace"))
        if self.failure:
            self._give_up_file()
            self.partial.unlink(missing_ok=True)
            raise TraceWriteError(f"cannot write {self.partial}: {self.failure}")

    def _open_partial(self):
        try:
            if self.path.is_dir():
                raise TraceWriteError(f"{self.path} is a directory; give a file name such as "
                                      f"{self.path / 'run.jsonl'}")
            if self._target_before is not None and not stat.S_ISREG(self._target_before[2]):
                raise TraceWriteError(f"{self.path} exists and is not a regular file; "
                                      "choose another name")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{secrets.token_hex(4)}.partial")
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(partial, flags, 0o644)
        except OSError as error:
            raise TraceWriteError(f"cannot write a trace at {self.path}: "
                                  f"{error.strerror or error}") from None
        return partial, os.fdopen(fd, "wb", buffering=1 << 16)

    def _write(self, line: bytes, screen: bool | str = True, flush: bool = True) -> None:
        """Append one line; `screen` is True (the whole line), False (derived), or the outside text to look at."""
        if screen is not False or self._tainted:
            line = self._screened(line, screen)
        try:
            self._file.write(line + b"\n")
            if flush:
                self._file.flush()  # to the page cache: a killed process leaves the line behind
        except OSError as error:
            self.failure = error.strerror or str(error)

    def _screened(self, line: bytes, screen: bool | str) -> bytes:
        """The line, redacted if the text it was screened by (the whole line once tainted) looks secret."""
        if screen is not True and not self._tainted:
            if not self.redactor.might_contain_secret(screen):
                return line
            self._tainted = True
        text = line.decode("utf-8", "replace")
        if not self.redactor.might_contain_secret(text):
            return line
        self._tainted = True
        # Redact the decoded value, not the text, so the line stays valid JSON.
        return json.dumps(self.redactor.redact(json.loads(text)), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8", "replace")

    def flush(self) -> None:
        """Write out buffered lines now (a listener about to pause the run calls this)."""
        if self.failure or self._file.closed:
            return
        try:
            self._file.flush()
        except OSError as error:
            self.failure = error.strerror or str(error)
            self._give_up_file()

    def __call__(self, event: EventBase) -> None:
        if self.failure or self._file.closed:
            return
        try:
            line, screen = self._encode(event)
            self._write(line, screen, event.kind not in self._flush_after)
        except Exception as error:  # the trace is a bystander: it must never change the run
            self.failure = f"{type(error).__name__}: {error}"
        if self.failure:
            self._give_up_file()
            return
        self.count += 1

    def _encode(self, event: EventBase) -> tuple[bytes, bool | str]:
        """The event's JSON line, and what of it must pass the secret screen (see DERIVED, SCREENED_FIELDS)."""
        kind = event.kind
        if kind in SCREENED_FIELDS:
            return self._encode_screened(event, kind)
        return encode_event(event), kind not in DERIVED

    def _encode_screened(self, event: EventBase, kind: str) -> tuple[bytes, bool | str]:
        values = event.__dict__
        if any(values[name] is not None for name in _UNSCREENED_UNLESS_NONE[kind]):
            line = self._encode_prompt(event) if kind == "llm_start" else encode_event(event)
            return line[0] if isinstance(line, tuple) else line, True
        texts = [values[name] or "" for name in SCREENED_FIELDS[kind]]
        if kind == "llm_start":
            line, new_text = self._encode_prompt(event)
            if new_text is not values["prompt"]:
                # What a prompt adds to the previous one is the reply and the observation that
                # were screened in their own lines (plus the template's glue): the key that
                # made the run is still looked for, the shapes of other secrets were already.
                if self.redactor.holds_known_secret(new_text):
                    return line, True
                return line, "\n".join(texts) or False
            texts.append(new_text)
        else:
            line = encode_event(event)
            if kind == "llm_end" and values["usage"]:
                texts.extend(values["usage"])  # its keys came from the model's client too
        return line, "\n".join(texts) or False

    def _encode_prompt(self, event: EventBase) -> tuple[bytes, str]:
        """The llm_start line, and the prompt text it is the first line to carry.

        A plan prompt is the previous one plus a step, so only the new text is written:
        "prompt_base" names the earlier llm_start from the same caller, "prompt_append"
        what follows it. Without this a long run's trace grows with the square of its length.
        """
        previous = self._last_prompt.get(event.frames)
        prompt = event.prompt
        self._last_prompt[event.frames] = (event.seq, prompt)
        fields = event_fields(event)
        if previous is None or len(prompt) <= len(previous[1]) or not prompt.startswith(previous[1]) or fields is None:
            return encode_event(event), prompt
        base_seq, base = previous
        added = prompt[len(base):]
        del fields["prompt"]
        fields["prompt_base"], fields["prompt_append"] = base_seq, added
        line = encode_fields(fields)
        if line is None:  # pydantic writes what orjson cannot, the same way
            head = event.__pydantic_serializer__.to_json(event, exclude={"prompt"}, fallback=repr)[:-1]
            appended = json.dumps(added, ensure_ascii=False).encode("utf-8", "replace")
            line = b"%s,\"prompt_base\":%d,\"prompt_append\":%s}" % (head, base_seq, appended)
        return line, added

    def _give_up_file(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass

    def close(self) -> Path:
        """Finish the trace: on disk, then renamed to `path`. Raises TraceWriteError if it cannot be."""
        if self.kept is not None:
            return self.kept
        if not self._file.closed:
            try:
                os.fsync(self._file.fileno())  # the data is on disk before the name points at it
                self._file.close()
            except OSError as error:
                self.failure = self.failure or error.strerror or str(error)
                self._give_up_file()
        if self.failure:
            kept = self._keep_partial(".failed")
            raise TraceWriteError(f"could not write {self.path} ({self.failure}); "
                                  f"{self._old_file_words()}{kept}")
        if not self.partial.exists():
            return self.path  # already renamed by an earlier close()
        self._rename_into_place()
        return self.path

    def _rename_into_place(self) -> None:
        now = _identity(self.path)
        if now != self._target_before:
            kept = self._keep_partial(".lost")
            raise TraceWriteError(f"another run wrote {self.path} while this one was recording; "
                                  f"theirs was kept{kept}")
        if self._target_before is None:
            try:  # link() refuses an existing name, so a run that got there first is never overwritten
                os.link(self.partial, self.path)
                self.partial.unlink()
                return
            except FileExistsError:
                kept = self._keep_partial(".lost")
                raise TraceWriteError(f"another run wrote {self.path} while this one was recording; "
                                      f"theirs was kept{kept}") from None
            except OSError as error:
                if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                    raise
        os.replace(self.partial, self.path)

    def abandon(self) -> Path | None:
        """Give up on an interrupted run: `path` is left as it was, the partial file kept as `<name>.interrupted`."""
        self._give_up_file()
        if self.kept is None and self.partial.exists():
            self.kept = self.path.with_name(self.path.name + ".interrupted")
            os.replace(self.partial, self.kept)
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
                self.kept = self.path.with_name(self.path.name + suffix)
                os.replace(self.partial, self.kept)
                return f"; this run's partial trace is in {self.kept}"
            self.partial.unlink(missing_ok=True)
        except OSError:
            pass
        return ""

    def _old_file_words(self) -> str:
        return f"{self.path} was left as it was" if self._target_before else "no trace was written"

    def __enter__(self) -> "TraceWriter":
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
