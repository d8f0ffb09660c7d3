"""The token bucket under contention: N threads hammer acquire() for a few seconds on the real clock.

Run: uv run python bench/bench_rate_limiter.py [--threads 8] [--seconds 5] [--qps 50] [--burst 1 5]
Prints calls/s (all calls, and after the opening burst) against the target, and the most calls
seen in any sliding window against what the bucket allows there (burst + qps * window).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import RateLimiter

WINDOWS = (0.02, 0.1, 0.5, 1.0)


def hammer(limiter: RateLimiter, threads: int, seconds: float) -> tuple[list[float], float]:
    """Every thread acquires in a loop until the deadline; returns the time of each call that got through."""
    stamps: list[float] = []
    lock = threading.Lock()
    start_line = threading.Barrier(threads + 1)
    deadline = 0.0

    def worker() -> None:
        start_line.wait()
        while True:
            limiter.acquire()
            now = time.monotonic()
            if now >= deadline:
                return  # a slot reserved before the deadline may fall after it: not counted
            with lock:
                stamps.append(now)

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in workers:
        thread.start()
    start = time.monotonic()
    deadline = start + seconds
    start_line.wait()
    for thread in workers:
        thread.join()
    return [stamp - start for stamp in sorted(stamps)], seconds


def busiest(stamps: list[float], window: float) -> int:
    """The most stamps inside any interval [t, t + window] (two pointers over sorted stamps)."""
    most, left = 0, 0
    for right, stamp in enumerate(stamps):
        while stamp - stamps[left] > window:
            left += 1
        most = max(most, right - left + 1)
    return most


def report(threads: int, seconds: float, qps: float, burst: int) -> bool:
    limiter = RateLimiter(max_qps=qps, burst=burst)
    stamps, duration = hammer(limiter, threads, seconds)
    rate = len(stamps) / duration
    steady = (len(stamps) - burst) / duration  # the opening burst is allowed on top of the rate
    ok = abs(steady - qps) / qps <= 0.02
    print(f"\nburst={burst}: {len(stamps)} calls in {duration:.1f}s from {threads} threads")
    print(f"  calls/s, all        {rate:8.2f}   ({(rate - qps) / qps:+.2%} vs {qps:g})")
    print(f"  calls/s, after burst {steady:7.2f}   ({(steady - qps) / qps:+.2%})  within 2%: {ok}")
    for window in WINDOWS:
        allowed = burst + qps * window
        seen = busiest(stamps, window)
        within = seen <= allowed + 1e-9
        ok = ok and within
        print(
            f"  busiest {window * 1000:6.0f} ms window: {seen:4d} calls (bucket allows {allowed:6.1f})"
            f"{'' if within else '   <-- over capacity'}"
        )
    gaps = [b - a for a, b in zip(stamps[burst:], stamps[burst + 1 :])]
    if gaps:
        gaps.sort()
        print(
            f"  gap between calls (ms): min {gaps[0] * 1000:.2f}  median {gaps[len(gaps) // 2] * 1000:.2f}"
            f"  max {gaps[-1] * 1000:.2f}   (target {1000 / qps:.2f})"
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--qps", type=float, default=50.0)
    parser.add_argument("--burst", type=int, nargs="+", default=[1, 5])
    args = parser.parse_args()
    results = [report(args.threads, args.seconds, args.qps, burst) for burst in args.burst]
    print("\nall within target" if all(results) else "\nSOME RUNS MISSED THE TARGET")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
