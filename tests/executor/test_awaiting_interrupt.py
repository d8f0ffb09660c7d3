"""Ctrl-C while synchronous code awaits a coroutine on loopscope's background loop."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.paths import ROOT

# Interrupt the main thread while run_to_completion waits on a coroutine that never ends,
# then report whether that coroutine's task was done by the time the KeyboardInterrupt arrived.
SCRIPT = """
import asyncio, os, signal, threading
from executor.awaiting import run_to_completion
started, seen = threading.Event(), {}

async def hang():
    seen["task"] = asyncio.current_task()
    started.set()
    await asyncio.Event().wait()

def interrupt():
    started.wait()
    os.kill(os.getpid(), signal.SIGINT)  # a real signal: it wakes the blocked wait

threading.Thread(target=interrupt, daemon=True).start()
try:
    run_to_completion(hang())
except KeyboardInterrupt:
    print("done" if seen["task"].done() else "pending", flush=True)
"""


def test_ctrl_c_leaves_no_task_pending_for_the_interpreter_to_destroy():
    # A task still pending when the interpreter exits prints "Task was destroyed but it is
    # pending!" after the KeyboardInterrupt traceback: a user's Ctrl-C ends in noise.
    process = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert process.stdout.strip() == "done", process.stderr
    assert "Task was destroyed" not in process.stderr
