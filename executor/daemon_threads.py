"""Work handed to daemon threads, so a tool that never returns cannot keep the process from exiting."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


def start_daemon_workers(jobs: Sequence[Callable[[], T]], max_workers: int, name: str) -> list[Future[T]]:
    """Start every job on at most `max_workers` daemon threads; one Future per job, in job order.

    Not a ThreadPoolExecutor: the interpreter joins its threads at exit (Python 3.9+), so one hung
    tool kept the process alive after Ctrl-C had already said "interrupted". A job still running
    when the main thread gives up (Ctrl-C, an unhandled error) is abandoned: its thread is left
    blocked where it is and dies with the process, without its finally blocks running.
    """
    futures: list[Future[T]] = [Future() for _ in jobs]
    todo: queue.SimpleQueue[tuple[Callable[[], T], Future[T]]] = queue.SimpleQueue()
    for pair in zip(jobs, futures):
        todo.put(pair)

    def work() -> None:
        while True:
            try:
                job, future = todo.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except BaseException as error:  # handed to whoever waits on the future, which decides
                future.set_exception(error)

    for number in range(min(max_workers, len(futures))):
        threading.Thread(target=work, name=f"{name}-{number}", daemon=True).start()
    return futures


async def in_daemon_thread(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`await asyncio.to_thread(func, ...)`, but on a daemon thread.

    asyncio.to_thread runs on the loop's default executor, whose threads asyncio.run waits for
    (up to five minutes) and the interpreter then joins: a blocking call that never returns, under
    ainvoke, would hold the process after Ctrl-C. The context variables go along, as to_thread's do.
    """
    context = contextvars.copy_context()
    job = functools.partial(context.run, func, *args, **kwargs)
    future = start_daemon_workers([job], 1, getattr(func, "__name__", "call"))[0]
    return await asyncio.wrap_future(future)
