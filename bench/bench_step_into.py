"""Live step-into's costs: one line handed to the debugger and back, and a tool run under the line tracer.

Run: uv run python bench/bench_step_into.py [--lines 2000] [--loop 200000]
Reports ratios within one run (the machine is shared): a traced tool with a line breakpoint it never
reaches against the same tool untraced, and other code in the run's thread while the trace waits for the call.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor.callee import callee_of
from tracer.debug.live_run import _function_snapshot
from tracer.debug.monitored_call import line_tracer
from tracer.debug.step_into import FunctionTracer


def tool(n):
    total = 0
    for i in range(n):
        total += i
    return total


def helper(x):
    return x + 1


def busy(n):
    for i in range(n):
        helper(i)


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def in_thread(work, tracer: FunctionTracer | None) -> float:
    """Seconds `work` takes in a fresh thread, under `tracer` when given (as the live run's thread is)."""
    spent: list[float] = []

    def run():
        if tracer is not None:
            tracer.install()
        spent.append(timed(work))
        if tracer is not None:
            tracer.uninstall()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return spent[0]


def line_round_trip(lines: int) -> float:
    """Seconds per line: the tracer hands a line over and waits, the debugger's side takes it and says go."""
    wanted, handed = threading.Semaphore(0), queue.Queue()

    def gate(stop):
        handed.put(stop)
        wanted.acquire()

    tracer = line_tracer(callee_of(tool), gate, _function_snapshot, "step")
    worker = threading.Thread(target=lambda: (tracer.install(), tool(lines // 2), tracer.uninstall()))
    started = time.perf_counter()
    worker.start()
    for _ in range(lines):
        handed.get()
        wanted.release()
    while worker.is_alive():  # the last line or two: keep answering until the call returns
        wanted.release()
        worker.join(0.01)
    return (time.perf_counter() - started) / lines


def costs(make, loop: int) -> tuple[float, float, float, float]:
    """(untraced tool, traced tool, untraced other calls, other calls while armed), best of three each."""
    never = frozenset({10_000})

    def armed():
        return make(callee_of(tool), lambda stop: None, _function_snapshot, "lines", never)

    return (
        min(in_thread(lambda: tool(loop), None) for _ in range(3)),
        min(in_thread(lambda: tool(loop), armed()) for _ in range(3)),
        min(in_thread(lambda: busy(loop), None) for _ in range(3)),
        min(in_thread(lambda: busy(loop), armed()) for _ in range(3)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--loop", type=int, default=200_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}")
    print(f"one line handed over and resumed: {line_round_trip(args.lines) * 1e6:.0f} µs (locals snapshot included)")
    for make in (FunctionTracer, line_tracer):
        name = type(make(callee_of(tool), lambda stop: None, _function_snapshot)).__name__
        plain, traced, calls, waiting = costs(make, args.loop)
        print(
            f"{name}: tool of {args.loop} loop rounds, traced for a line it never reaches: "
            f"{traced / plain:.1f}x untraced ({plain * 1e3:.1f} -> {traced * 1e3:.1f} ms); "
            f"{args.loop} other calls in the run's thread while armed: {waiting / calls:.1f}x "
            f"({calls * 1e3:.1f} -> {waiting * 1e3:.1f} ms)"
        )


if __name__ == "__main__":
    main()
