"""How long a replay takes to re-execute a recording for its real locals: to the last event, and a step after that."""

from __future__ import annotations

import time

import tutorials
from tracer.debug.session import build_session


def main() -> None:
    for name in ("rose-pricing", "iteration-limit", "tool-error-retried"):
        session = build_session(tutorials.SCENARIOS[name].fixture)
        last = len(session) - 1
        started = time.perf_counter()
        session.store.frames_at(last)
        whole = time.perf_counter() - started
        started = time.perf_counter()
        for position in range(last + 1):
            session.store.frames_at(position)
        cached = (time.perf_counter() - started) / (last + 1)
        print(
            f"{name:<20} {last + 1:>4} events: re-executed to the last in {whole * 1000:7.1f} ms "
            f"({whole / (last + 1) * 1e6:6.0f} µs/event); later look-ups {cached * 1e6:5.1f} µs"
        )
        session.store.close()


if __name__ == "__main__":
    main()
