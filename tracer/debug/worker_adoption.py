"""Step-into a user's sync tool that its framework runs on a worker thread (the Agents SDK's, pydantic-ai's)."""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any

from .monitored_call import MonitoredTracer
from .step_into import FunctionTracer


def code_of_function(function: Callable[..., Any] | None) -> CodeType | None:
    """The code a tool's function runs (under any decorator that kept __wrapped__)."""
    found = inspect.unwrap(function) if function is not None else None
    return getattr(found, "__code__", None)


def arguments_of(tool_input: str) -> dict[str, Any]:
    """The JSON scalars of a tool_start's input (a framework's tool call's arguments), by name; {} if none."""
    try:
        found = json.loads(tool_input)
    except ValueError:
        return {}
    scalars = (str, int, float, bool)
    return (
        {name: value for name, value in found.items() if isinstance(value, scalars)} if isinstance(found, dict) else {}
    )


def _is_this_call(frame: FrameType, arguments: dict[str, Any]) -> bool:
    """Whether the call's arguments are the stepped call's: one that differs, of the same type, tells two
    parallel calls of one tool apart (a value the framework converted, "3" into 3, is no evidence)."""
    local = frame.f_locals
    return all(
        type(local[name]) is not type(value) or local[name] == value
        for name, value in arguments.items()
        if name in local
    )


class WorkerAdoption:
    """A trace hook for the threads started while a framework's run goes on: when the armed tracer's function is
    called on one of them, that thread is traced from the call's first line.

    The Agents SDK runs a sync function tool with asyncio.to_thread and pydantic-ai with anyio's worker threads,
    so the call happens on a thread other than the one that made its tool_start. sys.settrace reaches only the
    thread that calls it; threading.settrace reaches threads started later, which these pools' threads are (each
    run has an event loop, and pools, of its own). The hook costs a call per function call on those threads only
    and returns None at once for any other code."""

    def __init__(self) -> None:
        self.tracer: FunctionTracer | None = None
        self.code: CodeType | None = None
        self.arguments: dict[str, Any] = {}  # the stepped call's, to tell it from a parallel call of the same tool
        self.thread: int | None = None  # the thread that took the armed call, once one has
        self._lock = threading.Lock()
        self._hook = self._on_call  # one bound method: threading.gettrace() is compared with it
        self._previous: Any = None
        self._started = False

    def start(self) -> None:
        """From now on, threads started anywhere in the process carry the hook."""
        self._previous, self._started = threading.gettrace(), True
        threading.settrace(self._hook)

    def stop(self) -> None:
        if self._started and threading.gettrace() is self._hook:  # another's hook set since stays
            threading.settrace(self._previous)
        self._started = False
        self.disarm()

    def arm(self, tracer: FunctionTracer, code: CodeType | None, arguments: dict[str, Any] | None = None) -> None:
        with self._lock:
            self.tracer, self.code, self.thread, self.arguments = tracer, code, None, arguments or {}

    def disarm(self) -> None:
        with self._lock:
            self.tracer, self.code, self.thread, self.arguments = None, None, None, {}

    def _on_call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code is not self.code:
            return None
        with self._lock:  # parallel calls of one tool: the one with the stepped call's arguments
            tracer = self.tracer
            if tracer is None or tracer.frame is not None or tracer.returned:
                return None
            if not _is_this_call(frame, self.arguments):
                return None
            self.thread = threading.get_ident()
            tracer.install()  # this thread's trace function (this hook) comes back when the call returns
            if isinstance(tracer, MonitoredTracer):  # its lines come from sys.monitoring, for this frame
                tracer.frame = frame
                return None
            return tracer.on_call(frame, event, arg)
