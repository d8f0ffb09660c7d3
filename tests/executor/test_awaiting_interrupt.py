"""Ctrl-C while synchronous code awaits a coroutine on loopscope's background loop."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

# Interrupt the main thread while run_to_completion waits on a coroutine that never ends,
# then report whether that coroutine's task was done by the time the KeyboardInterrupt arrived.
# With "late", the main thread is held just after the task is scheduled and before
# run_coroutine_threadsafe returns its future: where a loaded machine's scheduler can leave it.
SCRIPT = """
import asyncio, os, signal, sys, threading, time
from executor.awaiting import run_to_completion
started, seen = threading.Event(), {}

async def hang():
    seen["task"] = asyncio.current_task()
    started.set()
    await asyncio.Event().wait()

if sys.argv[1] == "late":
    schedule = asyncio.run_coroutine_threadsafe
    def held(coroutine, loop):
        future = schedule(coroutine, loop)
        time.sleep(30)  # the SIGINT lands here, before the caller holds `future`
        return future
    asyncio.run_coroutine_threadsafe = held

def interrupt():
    started.wait()
    os.kill(os.getpid(), signal.SIGINT)  # a real signal: it wakes the blocked wait

threading.Thread(target=interrupt, daemon=True).start()
try:
    run_to_completion(hang())
except KeyboardInterrupt:
    print("done" if seen["task"].done() else "pending", flush=True)
"""


@pytest.mark.parametrize("when", ["waiting", "late"])
def test_ctrl_c_leaves_no_task_pending_for_the_interpreter_to_destroy(when):
    # A task still pending when the interpreter exits prints "Task was destroyed but it is
    # pending!" after the KeyboardInterrupt traceback: a user's Ctrl-C ends in noise.
    process = subprocess.run([sys.executable, "-c", SCRIPT, when], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert process.stdout.strip() == "done", process.stderr
    assert "Task was destroyed" not in process.stderr
    assert "never awaited" not in process.stderr


UNSTARTED = """
import asyncio, signal, os, warnings
from executor.awaiting import run_to_completion
warnings.simplefilter("always")

async def never_runs():
    return "ran"

schedule = asyncio.run_coroutine_threadsafe
def interrupted(coroutine, loop):
    os.kill(os.getpid(), signal.SIGINT)  # before anything is scheduled
    return schedule(coroutine, loop)
asyncio.run_coroutine_threadsafe = interrupted
try:
    run_to_completion(never_runs())
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_before_the_task_exists_leaves_no_coroutine_unawaited():
    process = subprocess.run([sys.executable, "-c", UNSTARTED], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert process.stdout.strip() == "interrupted", process.stderr
    assert "never awaited" not in process.stderr, process.stderr
