"""Running a framework's coroutine to its end from synchronous code, with or without an event loop already running."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from executor.daemon_threads import start_daemon_workers

P = ParamSpec("P")
T = TypeVar("T")


class _DaemonThreads(ThreadPoolExecutor):
    """The default executor of the run's event loop, where asyncio.to_thread runs a framework's sync tool (the
    Agents SDK's): each job on a daemon thread, and shutting down does not wait for them. asyncio.run waits for
    its default executor's threads on the way out, so one tool that hangs held the process after Ctrl-C."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return start_daemon_workers([functools.partial(fn, *args, **kwargs)], 1, "loopscope-tool")[0]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        return None  # nothing of its own to stop; a job still running (a hung tool) dies with the process


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    with asyncio.Runner() as runner:
        runner.get_loop().set_default_executor(_DaemonThreads())
        return runner.run(coroutine)


def run_to_end(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run the coroutine: in this thread, or (when an event loop already runs here, as in a notebook or an
    async test) in a thread of its own, since a running loop cannot be waited on from inside."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run(coroutine)
    outcome: dict[str, Any] = {}

    def in_thread() -> None:
        try:
            outcome["value"] = _run(coroutine)
        except BaseException as error:  # handed back to the caller's thread
            outcome["error"] = error

    worker = threading.Thread(target=in_thread, name="loopscope-framework-run")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
