"""Live step-into: a user's tool function run under a line tracer that hands each line to the debugger."""

from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

from executor.events import CalleeRef
from executor.paths import relative_path as _relative  # the path rule every callee's file was written with

from ..i18n import Message

LOOPSCOPE_PACKAGES = ("executor/", "tracer/", "tutorials/")
CODE_FLAGS_SUSPENDING = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR


@dataclass(frozen=True)
class LineStop:
    """The traced function paused before running `frame.line` (frame: its real locals as short reprs)."""

    frame: Any  # a live_run.FrameSnapshot (function = the qualified name)
    reason: str  # "step" or "breakpoint"


def why_not_steppable(event: Any) -> Message | None:
    """None when `s` at this tool_start can step into the user's function line by line, else why not."""
    callee: CalleeRef | None = getattr(event, "callee", None)
    if getattr(event, "kind", "") != "tool_start" or callee is None:
        return Message("debugger.into.no_function")
    name = f"{callee.qualname or callee.function}()"
    if callee.file.startswith(LOOPSCOPE_PACKAGES):
        return Message("debugger.into.ours", {"name": name, "file": callee.file})
    return None


class FunctionTracer:
    """sys.settrace on one thread: the first call of the callee's code is traced line by line.

    Scoped to that one call: other functions get no local trace (their lines cost nothing), a
    recursive call of the same function is not followed, and a coroutine's frame is followed
    across its awaits (each resumption is a new 'call' of the same frame). `gate(stop)` blocks
    until the debugger says go on; it may raise to end the run (the tracer is then gone too).
    `mode` is "step" (stop at every line) or "lines" (stop only at `lines`: line breakpoints).
    """

    def __init__(
        self,
        callee: CalleeRef,
        gate: Callable[[LineStop], None],
        snapshot: Callable[[FrameType, str], Any],
        mode: str = "step",
        lines: frozenset[int] = frozenset(),
    ) -> None:
        self.callee, self.gate, self.snapshot = callee, gate, snapshot
        self.mode, self.lines = mode, lines
        self.frame: FrameType | None = None
        self.returned = False
        self._matches: dict[CodeType, bool] = {}
        self.threads: dict[int, Any] = {}  # thread id -> the trace function it had: where this one is installed
        self.on_loop = False  # an async tool: its body runs on the awaiting loop's thread, traced there too
        self._lock = threading.Lock()

    def retarget(self, mode: str, lines: frozenset[int]) -> None:
        """Change where the next stop is (the debugger calls this while the traced thread waits at a line)."""
        self.mode, self.lines = mode, lines

    def install(self) -> None:
        """Trace the calling thread from now on (a trace function already there, e.g. coverage's, comes back after)."""
        with self._lock:
            self.threads[threading.get_ident()] = sys.gettrace()
        sys.settrace(self.on_call)

    def uninstall(self) -> None:
        """Stop tracing the calling thread (idempotent)."""
        with self._lock:
            previous = self.threads.pop(threading.get_ident(), None)
        sys.settrace(previous)
        if self.frame is not None:
            self.frame.f_trace = None

    def _is_target(self, code: CodeType) -> bool:
        found = self._matches.get(code)
        if found is None:
            callee = self.callee
            found = (
                code.co_firstlineno == callee.line
                and code.co_name == callee.function
                and _relative(code.co_filename) == callee.file
            )
            self._matches[code] = found
        return found

    def on_call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if self.returned:
            return None
        if self.frame is None:
            if event != "call" or not self._is_target(frame.f_code):
                return None
            if frame.f_code.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR):
                return None  # a generator tool yields events mid-function: stepped as events, not lines
            self.frame = frame
        elif frame is not self.frame:
            return None
        return self.on_line

    def on_line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line" and (self.mode == "step" or frame.f_lineno in self.lines):
            self.gate(
                LineStop(
                    self.snapshot(frame, self.callee.qualname or self.callee.function),
                    "step" if self.mode == "step" else "breakpoint",
                )
            )
        elif event == "return" and not frame.f_code.co_flags & CODE_FLAGS_SUSPENDING:
            self.returned = True  # a plain function returned (or raised): this call is over
            self.uninstall()
            return None
        return self.on_line


def is_async_tool(tool: Any) -> bool:
    """Whether a tool's function is a coroutine function (under `invoke` it runs on the awaiting loop)."""
    func = getattr(tool, "func", None)
    return callable(func) and inspect.iscoroutinefunction(inspect.unwrap(func))


def on_awaiting_loop(action: Callable[[], None], wait: bool = False) -> None:
    """Run `action` on the thread of the loop that awaits async tools under `invoke` (in order: it is
    queued before the tool's coroutine is). With `wait`, return once it has run (or after 2 s)."""
    # The loop is the executor's; only its thread is used. Late: executor.awaiting loads the run machinery
    # too, which this module, imported for the debugger's first frame, does without.
    from executor.awaiting import _background_loop

    done = threading.Event()

    def run() -> None:
        try:
            action()
        finally:
            done.set()

    _background_loop().call_soon_threadsafe(run)
    if wait:
        done.wait(timeout=2)
