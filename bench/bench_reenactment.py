"""How long a replay takes to re-execute a recording for its real locals: to the last event, then 10 more, then a look-up.

Run: uv run python bench/bench_reenactment.py
The tutorials' recordings and bench_debugger.py's 1,992-event run of bench/long_run_agent.py (recorded into
bench/out once). CPU time is the process's (the re-executed run's thread included): what a busy machine
cannot inflate the way it inflates the wall clock.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import tutorials
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules
import long_run_agent
from bench_debugger import reexecuted_trace


def measure(name: str, path: Path, agents: tuple[str, ...] = ()) -> None:
    session = build_session(path, options=DebuggerOptions(agents=agents))
    store, last = session.store, len(session) - 1
    store.frames_at(0)  # the run's thread, the recording's replies and the first event: set up once
    wall, cpu = time.perf_counter(), time.process_time()
    store.frames_at(last)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert store.reenactment.problem is None, store.reenactment.problem
    middle = last // 2
    session2 = build_session(path, options=DebuggerOptions(agents=agents))
    session2.store.frames_at(middle)
    step = time.process_time()
    session2.store.frames_at(min(middle + 10, last))
    step = time.process_time() - step
    looked = time.perf_counter()
    for position in range(last + 1):
        store.frames_at(position)
    looked = (time.perf_counter() - looked) / (last + 1)
    print(
        f"{name:<22} {last + 1:>5} events: to the last {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU "
        f"({cpu / last * 1e6:5.0f} µs CPU/event); 10 more from the middle {step * 1000:5.1f} ms CPU; "
        f"a kept event's frames {looked * 1e6:4.1f} µs"
    )
    store.close()
    session2.store.close()


def main() -> None:
    for name in ("rose-pricing", "iteration-limit", "tool-error-retried"):
        measure(name, tutorials.SCENARIOS[name].fixture)
    measure("long_run_agent", reexecuted_trace(Path(__file__).resolve().parent / "out"), (long_run_agent.SPEC,))


if __name__ == "__main__":
    main()
