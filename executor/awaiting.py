"""Awaiting at the loop's leaves: a coroutine from a tool or a model is awaited, never used as its value.

The loop is one set of generators for both drivers. Where a tool or a model hands back an
awaitable, `awaited` either runs it to completion right there (sync driver: invoke, iter_events)
or yields an AwaitRequest up the `yield from` chain for the async driver (ainvoke, aiter_events)
to await and send back. So the generators stay the real call stack under both, and there is no
async twin of any loop method to drift from the sync one (LangChain has `_call` and `_acall`,
`_take_next_step` and `_atake_next_step`, ... written twice).
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import types
from collections.abc import Awaitable, Callable, Generator
from concurrent.futures import Future
from typing import Any, TypeVar

from .clock import Clock, SystemClock
from .daemon_threads import in_daemon_thread
from .run_context import RunContext

T = TypeVar("T")

Narrated = Generator[Any, Any, T]
"""A generator of the loop's call chain that returns T. It yields events, and under the async driver
AwaitRequests too, which the driver answers with send(): so neither type is narrower than Any."""


class AwaitRequest:
    """Yielded by `awaited` under the async driver: "await this and send me the result"."""

    __slots__ = ("awaitable",)

    def __init__(self, awaitable: Awaitable[Any]) -> None:
        self.awaitable = awaitable

    def __repr__(self) -> str:
        return f"AwaitRequest({self.awaitable!r})"


# Types whose values are never awaitable: what tools and models return nearly always. A type()
# lookup here saves inspect.isawaitable's ABC check on each of the loop's calls.
_PLAIN = {str, dict, list, tuple, int, float, bool, type(None)}


def _is_awaitable(value: Any) -> bool:
    kind = type(value)
    if kind in _PLAIN:
        return False
    if inspect.isawaitable(value):
        return True
    # Whether an instance is awaitable depends on its type alone (its __await__), except for
    # generators, which are awaitable when their code is a decorated coroutine.
    if kind is not types.GeneratorType and len(_PLAIN) < 256:
        _PLAIN.add(kind)
    return False


def awaited(run: RunContext, value: Any) -> Generator[Any, Any, Any]:
    """`value` itself, or, when it is awaitable, what awaiting it gives."""
    if not _is_awaitable(value):
        return value
    if getattr(run, "awaits_in_driver", False):
        return (yield AwaitRequest(value))
    return run_to_completion(value)


def call_either(
    run: RunContext, func: Callable[..., Any], coroutine: Callable[..., Any] | None, *args: Any, **kwargs: Any
) -> Generator[Any, Any, Any]:
    """Call a tool's or a model's function the way the driver needs.

    Sync driver: `func`, its awaitable (if any) run to completion. Async driver: `coroutine`
    if there is one (LangChain: ainvoke, agenerate), else `func` awaited if it is async, else
    `func` in a daemon thread, so a blocking call does not freeze the caller's event loop
    (LangChain runs sync tools in an executor under ainvoke too).
    """
    if not getattr(run, "awaits_in_driver", False):
        value = func(*args, **kwargs)
        if not _is_awaitable(value):
            return value  # the common case, without a generator for `awaited`
        return run_to_completion(value)
    if coroutine is not None:
        return (yield from awaited(run, coroutine(*args, **kwargs)))
    if inspect.iscoroutinefunction(func):
        return (yield from awaited(run, func(*args, **kwargs)))
    result = yield AwaitRequest(in_daemon_thread(func, *args, **kwargs))
    return (yield from awaited(run, result))  # a sync function may still hand back an awaitable


def pause(run: RunContext, seconds: float, clock: Clock | None = None) -> Generator[Any, Any, None]:
    """Wait on `clock` (the run's by default). Under the async driver real time passes in
    asyncio.sleep, so a backoff or a rate limit does not block the event loop (a manual or
    skipping clock stays instant)."""
    clock = clock or run.clock
    if getattr(run, "awaits_in_driver", False) and type(clock) is SystemClock and seconds > 0:
        yield AwaitRequest(asyncio.sleep(seconds))
    else:
        clock.sleep(seconds)


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    # One long-lived loop rather than asyncio.run per call: an async client (AsyncOpenAI, httpx)
    # keeps connections bound to the loop it first ran on, and a closed loop breaks them.
    global _loop
    with _loop_lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="loopscope-awaiting", daemon=True).start()
            _loop = loop
        return _loop


def run_to_completion(awaitable: Awaitable[Any]) -> Any:
    """Await `awaitable` from synchronous code, whether or not this thread already runs an event loop."""
    loop = _background_loop()
    if _running_loop() is loop:  # a sync run nested inside a coroutine on our own loop: no deadlock
        done: Future[Any] = Future()
        threading.Thread(target=lambda: _settle(done, lambda: _awaiting(awaitable)), daemon=True).start()
        return done.result()
    coroutine = _awaiting(awaitable)
    future: Future[Any] | None = None
    try:
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        return future.result()
    except BaseException:
        # A Ctrl-C can land anywhere here, even before `future` is assigned while the task already
        # runs on the loop thread: so the task is found and cancelled from that thread.
        if future is None or not future.done():
            _cancel_and_wait(loop, coroutine, awaitable)
        raise


async def _awaiting(awaitable: Awaitable[Any]) -> Any:
    return await awaitable  # a coroutine, which run_coroutine_threadsafe needs, for any awaitable


def _cancel_and_wait(loop: asyncio.AbstractEventLoop, coroutine: Any, awaitable: Awaitable[Any]) -> None:
    """Cancel the task running `coroutine` and wait until it is done, so an interpreter exiting on
    Ctrl-C does not print "Task was destroyed but it is pending!" after the traceback. Bounded,
    for a coroutine that swallows its cancellation or a loop thread that is blocked."""
    settled = threading.Event()

    def finish(_task: object = None) -> None:
        for unstarted in (coroutine, awaitable):  # cancelled before its first step: never awaited
            if inspect.iscoroutine(unstarted) and inspect.getcoroutinestate(unstarted) == inspect.CORO_CREATED:
                unstarted.close()
        settled.set()

    def cancel() -> None:  # on the loop thread, after the call that creates the task, if it was made
        task = next((task for task in asyncio.all_tasks(loop) if task.get_coro() is coroutine), None)
        if task is None:
            finish()
        else:
            task.cancel()
            task.add_done_callback(finish)

    loop.call_soon_threadsafe(cancel)
    settled.wait(timeout=1.0)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _settle(done: Future[Any], wait: Callable[[], Awaitable[Any]]) -> None:
    try:
        done.set_result(asyncio.run(wait()))  # type: ignore[arg-type]
    except BaseException as error:
        done.set_exception(error)
