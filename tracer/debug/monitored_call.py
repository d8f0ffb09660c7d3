"""Live step-into on Python 3.12+: sys.monitoring events on the tool function's code object alone."""

from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable
from types import CodeType
from typing import Any

from executor import callee as callees

from .step_into import CODE_FLAGS_SUSPENDING, FunctionTracer, LineStop

TOOL_NAME = "loopscope"
# sys.monitoring is Python 3.12+: None on 3.11 (line_tracer then picks settrace). Typed Any because the
# project is type-checked as 3.11, whose sys has no monitoring.
_monitoring: Any = getattr(sys, "monitoring", None)


def code_of(callee: Any) -> CodeType | None:
    """The code object behind a tool's callee: the one callee_of described when the tool was built."""
    # callees' cache maps each code object it described to its CalleeRef.
    return next((code for (_file, code), found in list(callees._by_code.items()) if found == callee), None)


def line_tracer(
    callee: Any,
    gate: Callable[[LineStop], None],
    snapshot: Callable[..., Any],
    mode: str = "step",
    lines: frozenset[int] = frozenset(),
) -> FunctionTracer:
    """sys.monitoring scoped to the function's code on 3.12+ (the rest of the program runs untouched),
    when the debugger's tool id is free and the code object is known; sys.settrace otherwise."""
    code = code_of(callee) if _monitoring is not None else None
    if (
        code is None
        or code.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR)
        or _monitoring.get_tool(_monitoring.DEBUGGER_ID) is not None
    ):
        return FunctionTracer(callee, gate, snapshot, mode, lines)
    return MonitoredTracer(callee, gate, snapshot, mode, lines, code)


class MonitoredTracer(FunctionTracer):
    """The same stops as FunctionTracer, from LINE / PY_START / PY_RETURN events that only `code` raises.

    The events come from every thread that runs the code: a callback acts only on the threads this
    tracer was installed on, and only on the frame of the first call (PY_START) made there.
    """

    def __init__(
        self,
        callee: Any,
        gate: Callable[[LineStop], None],
        snapshot: Callable[..., Any],
        mode: str,
        lines: frozenset[int],
        code: CodeType,
    ) -> None:
        super().__init__(callee, gate, snapshot, mode, lines)
        self.code = code
        self._active = False

    def install(self) -> None:
        with self._lock:
            self.threads[threading.get_ident()] = None
            if self._active:
                return
            monitoring = _monitoring
            tool, events = monitoring.DEBUGGER_ID, monitoring.events
            monitoring.use_tool_id(tool, TOOL_NAME)
            monitoring.register_callback(tool, events.PY_START, self._started)
            monitoring.register_callback(tool, events.LINE, self._line)
            monitoring.register_callback(tool, events.PY_RETURN, self._returned)
            monitoring.restart_events()  # lines an earlier run-to-breakpoint switched off (DISABLE) raise again
            monitoring.set_local_events(tool, self.code, events.PY_START | events.LINE | events.PY_RETURN)
            self._active = True

    def uninstall(self) -> None:
        with self._lock:
            self.threads.pop(threading.get_ident(), None)
            if self.threads or not self._active:
                return
            self._release()

    def _release(self) -> None:
        monitoring = _monitoring
        tool, events = monitoring.DEBUGGER_ID, monitoring.events
        monitoring.set_local_events(tool, self.code, 0)
        for event in (events.PY_START, events.LINE, events.PY_RETURN):
            monitoring.register_callback(tool, event, None)
        monitoring.free_tool_id(tool)
        self._active = False

    def _ours(self) -> bool:
        return threading.get_ident() in self.threads

    def _started(self, code: CodeType, offset: int) -> Any:
        if self.frame is None and not self.returned and self._ours():
            self.frame = sys._getframe(1)  # the first call, on a traced thread: the one to step through
        return None

    def retarget(self, mode: str, lines: frozenset[int]) -> None:
        super().retarget(mode, lines)
        _monitoring.restart_events()  # lines switched off while running to the breakpoints raise again

    def _line(self, code: CodeType, line: int) -> Any:
        if self.mode == "lines" and line not in self.lines:
            return _monitoring.DISABLE  # never a stop while running to the breakpoints: no more events here
        frame = sys._getframe(1)
        if frame is self.frame and self._ours():
            self.gate(
                LineStop(
                    self.snapshot(frame, self.callee.qualname or self.callee.function),
                    "step" if self.mode == "step" else "breakpoint",
                )
            )
        return None

    def _returned(self, code: CodeType, offset: int, value: Any) -> Any:
        if sys._getframe(1) is self.frame and not code.co_flags & CODE_FLAGS_SUSPENDING:
            self.returned = True  # a plain function returned: nothing more to watch in this call
            with self._lock:
                self.threads.clear()
                if self._active:
                    self._release()
        return None
