"""The writing half of the LangChain handler: events numbered, stamped and written; a file that never stops the run."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from importlib import metadata
from pathlib import Path
from types import FrameType
from typing import Any
from uuid import UUID

from executor.events import ChainEndEvent, ChainErrorEvent, ChainStartEvent, EventBase, SourceRef

from ..trace.redact import Redactor, default_redactor
from ..trace.writer import TraceWriteError, TraceWriter
from .callback_guard import DROPPED_KEY, DroppedCallbacks, logger
from .langchain_stack import loop_stack, outermost_loop_frame

# Their versions go in the trace's header: a reader can tell which LangChain wrote the frames' lines.
DISTRIBUTIONS = ("langchain", "langchain-classic", "langchain-core", "langgraph")


class TraceRecorder:
    """Events made from LangChain's callbacks, each stamped with the envelope (seq, the root run's id,
    time, the loop's round, LangChain's frames), kept in `events` and written while the file can be.

    A file that cannot be written leaves `problem` (one line) and the events in memory; a callback
    that failed is counted in `dropped`, and the run's last event carries the count."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        redactor: Redactor | None,
        clock: Callable[[], float],
        sync: bool = True,
        **meta: Any,
    ) -> None:
        versions = {name: _version(name) for name in DISTRIBUTIONS}
        self.problem: str | None = None  # why the trace file is missing or incomplete (one line)
        self.writer: TraceWriter | None = None
        self.kept = ""  # after Ctrl-C: where the events so far went, in words (see abandon)
        try:
            redactor = redactor if redactor is not None else environment_redactor()
            self.writer = TraceWriter(path, redactor, sync=sync, source="langchain", langchain=versions, **meta)
        except TraceWriteError as error:
            self.could_not_write(f"{error}; the run goes on untraced (handler.events holds its events)")
        self.path = self.writer.path if self.writer is not None else Path(path)
        self.dropped = DroppedCallbacks()
        self.root: UUID | None = None  # the outermost chain's run: its id is every event's run_id
        self.iteration = 0  # the loop's round, stamped on every event from now on
        self.ended = False  # the outermost chain's end (or error) was written
        self.events: list[EventBase] = []
        self.listener: Callable[[EventBase], None] | None = None  # told each event once it is written
        # An event held back until something it names is known (a graph's finish check waits for its edge's
        # answer): made before any other event, so the order stays the run's.
        self.pending: Callable[[], None] | None = None
        self._clock = clock
        self._start = clock()
        self._seq = 0
        self._lock = threading.Lock()  # LangGraph runs tools in worker threads
        self._outermost: FrameType | None = None  # the run's outermost loop frame: stack walks end there
        self._root_text = "None"  # str(root), made once: UUID.__str__ is Python code
        self._texts: dict[UUID, str] = {}  # LangChain's run ids as written, each made once

    def begin(self, run_id: UUID, frame: FrameType) -> None:
        """The outermost chain started (in `frame`'s thread): its events are this run's."""
        self.root, self._outermost = run_id, outermost_loop_frame(frame)
        self._root_text = str(run_id)

    def walk(self, start: FrameType | None = None) -> tuple[SourceRef, ...]:
        """LangChain's loop frames from `start` (the caller's frame) up to the run's outermost one."""
        return loop_stack(start if start is not None else sys._getframe(1), self._outermost)

    def elapsed(self) -> float:
        """Seconds since the handler was made, on its clock."""
        return self._clock() - self._start

    def emit(
        self,
        cls: type[EventBase],
        callback: str,
        run_id: UUID | None,
        parent: UUID | None,
        stack: tuple[SourceRef, ...] | None = None,
        extra_origin: dict[str, Any] | None = None,
        at: float | None = None,
        **payload: Any,
    ) -> None:
        """One event of class `cls`, made in `callback` for LangChain's run `run_id` (under `parent`);
        `stack` defaults to LangChain's loop frames on the stack now; `extra_origin` joins its origin;
        `at` is when it happened, when that was before now (a retry is known only when the next attempt starts)."""
        if self.pending is not None:
            held, self.pending = self.pending, None
            held()
        waiting = getattr(self.listener, "before_event", None)
        if waiting is not None:  # a live debugger lets one thread at a time make events (parallel tool calls)
            waiting()
        stack = self.walk(sys._getframe(1)) if stack is None else stack
        source = stack[-1] if stack else SourceRef(file="(langchain)", line=0, function=callback)
        origin: dict[str, Any] = {
            "callback": callback,
            "run_id": self._text(run_id) if run_id else None,
            "parent_run_id": self._text(parent) if parent else None,
        }
        if extra_origin:
            origin.update(extra_origin)
        if cls in (ChainEndEvent, ChainErrorEvent):
            self.ended = True
            if self.dropped.count:  # the last event says what is missing, so no reader takes it for a cut run
                origin[DROPPED_KEY] = self.dropped.note()
        with self._lock:
            event = cls(
                seq=self._seq,
                run_id=self._root_text,
                t=self.elapsed() if at is None else at,
                iteration=self.iteration,
                frames=tuple([f.function for f in stack]) or (callback,),
                source=source,
                stack=stack or None,
                origin=origin,
                **payload,
            )
            self._seq += 1
            self.events.append(event)
            if self.writer is not None:
                self.writer(event)  # a closed writer ignores it
            if self.listener is not None:
                # Inside the lock: a live debugger's listener holds this thread until the next event is asked
                # for, and the run's other threads wait here to make theirs, so events are handed out in order.
                self.listener(event)

    def _text(self, run_id: UUID) -> str:
        text = self._texts.get(run_id)
        if text is None:
            text = self._texts[run_id] = str(run_id)
        return text

    def close(self) -> str | None:
        """Finish the trace file. Never raises: returns why the trace is missing or incomplete (one
        line, also in `problem`), or None when it was written whole."""
        if self.pending is not None and self.writer is not None:  # a held event is written before the file ends
            held, self.pending = self.pending, None
            try:
                held()
            except Exception as error:  # closing never raises: the trace says what it lacks instead
                self.could_not_write(f"the last event could not be made: {type(error).__name__}: {error}")
        writer, self.writer, self._outermost = self.writer, None, None  # the frame is not kept past the run
        if writer is not None:
            try:
                writer.close()
            except TraceWriteError as error:
                self.could_not_write(str(error))
        return self.problem

    def abandon(self) -> str:
        """Ctrl-C ended the run: the named file is left as it was and the events so far (the held one too) are
        kept as `<name>.interrupted`; says so in words for the one-line message."""
        writer = self.writer
        if writer is None:
            return self.kept
        if self.pending is not None:
            held, self.pending = self.pending, None
            with suppress(Exception):  # nothing more can be said on the way out of a Ctrl-C
                held()
        self.writer, self._outermost = None, None
        writer.abandon()
        self.kept = writer.interrupted_words()
        return self.kept

    def could_not_write(self, problem: str) -> None:
        self.problem = problem
        logger.warning("loopscope: %s", problem)

    def callback_failed(self, callback: str, error: BaseException, run_id: UUID | None) -> None:
        """A callback raised: its events are dropped and counted. The run's own start and end are
        still written (without what could not be read), so the trace stays a whole run."""
        self.dropped.add(callback, error)
        if run_id is None or run_id != self.root:
            return
        try:
            if callback == "on_chain_start" and not self.events:
                self.emit(ChainStartEvent, callback, run_id, None, stack=(), inputs={}, tools=[], settings={})
            elif callback in ("on_chain_end", "on_chain_error") and not self.ended:
                if callback == "on_chain_end":
                    self.emit(ChainEndEvent, callback, run_id, None, stack=(), outputs={})
                else:
                    self.emit(
                        ChainErrorEvent,
                        callback,
                        run_id,
                        None,
                        stack=(),
                        error_type="unknown",
                        message="(the error could not be recorded)",
                    )
                self.close()
        except Exception as again:  # the bare event failed too: what is written stays, nothing is raised
            self.dropped.add(callback, again)


# The environment the last default redactor was made from (a copy of os.environ's own mapping), and it.
_last_redactor: list[tuple[dict[Any, Any], Redactor]] = []


def environment_redactor() -> Redactor:
    """default_redactor(), made again only when the environment changed since it was last made.

    Reading the environment's secrets takes a while, a handler is made for every run, and between
    runs the environment rarely changes: comparing it with a copy (C dicts, fast) says whether
    it did. A variable set or removed (os.environ, LOOPSCOPE_REDACT included) makes a new one."""
    environ = getattr(os.environ, "_data", None)  # CPython's os.environ keeps the variables here
    if not isinstance(environ, dict):
        return default_redactor()
    if _last_redactor and _last_redactor[0][0] == environ:
        return _last_redactor[0][1]
    snapshot = dict(environ)
    redactor = default_redactor()
    _last_redactor[:] = [(snapshot, redactor)]
    return redactor


@cache  # reading a distribution's metadata parses its METADATA file: once a process, not once a run
def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None
