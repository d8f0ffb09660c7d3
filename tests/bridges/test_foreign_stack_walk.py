"""Walking the run's own thread from a worker thread (a LangGraph tool node's callback): that thread runs on
while its frames are read, so the walk must stop at what is no frame rather than fail the callback."""

from __future__ import annotations

import threading
import time

import pytest

from tracer.bridges.langchain_stack import loop_stack, thread_stack


def test_a_walk_of_another_thread_stops_at_what_is_no_frame():
    # What CI once met: f_back read while the thread moved on was an Event, and on_chain_start failed.
    assert loop_stack(threading.Event(), foreign=True) == ()  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        loop_stack(threading.Event())  # type: ignore[arg-type]  # the run's own thread is never checked


def test_walking_a_thread_that_keeps_moving_never_raises():
    stop = threading.Event()

    def churn(depth: int = 0) -> None:  # calls and returns without pause, and waits now and then
        while not stop.is_set():
            if depth < 30:
                churn(depth + 1)
                return
            stop.wait(0.0001)
            return

    def busy() -> None:
        while not stop.is_set():
            churn()

    worker = threading.Thread(target=busy, daemon=True)
    worker.start()
    try:
        deadline = time.monotonic() + 0.5
        walks = 0
        while time.monotonic() < deadline:
            assert thread_stack(worker.ident) == ()  # no LangChain frames in it: nothing found, nothing raised
            walks += 1
        assert walks > 100
    finally:
        stop.set()
        worker.join(5)
