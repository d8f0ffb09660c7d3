"""Retry delays against the policy's formula, and what a retried run really waits on the real clock.

Run: uv run python bench/bench_retry.py [--samples 20000] [--seed 1]
Part 1 draws delay_for(attempt) many times per attempt (jitter on) and prints min / median /
max next to the formula's band [base/2, base], base = min(initial * factor**(attempt-1), max_delay).
Part 2 runs the rose-pricing loop against a model that fails three times, on the real clock
with a short initial delay, and compares the elapsed time with the delays the retry events chose.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import RetryPolicy, ScriptedModel, SystemClock
from tutorials import get_scenario


def delay_table(samples: int, seed: int) -> bool:
    policy = RetryPolicy(
        initial_delay=1.0, backoff_factor=2.0, max_delay=20.0, jitter=True, rng=random.Random(seed).random
    )
    print(f"delays with jitter ({samples} draws per attempt; initial 1 s, factor 2, cap 20 s)")
    print(f"{'attempt':>7} {'formula':>8} {'band':>17} {'min':>8} {'median':>8} {'max':>8} {'mean':>8}  in band")
    ok = True
    for attempt in range(1, 8):
        base = min(1.0 * 2.0 ** (attempt - 1), 20.0)
        draws = [policy.delay_for(attempt) for _ in range(samples)]
        inside = all(base / 2 <= d <= base for d in draws)
        ok = ok and inside
        print(
            f"{attempt:>7} {base:>8.3f} {f'[{base / 2:.3f}, {base:.3f}]':>17} {min(draws):>8.3f} "
            f"{statistics.median(draws):>8.3f} {max(draws):>8.3f} {statistics.fmean(draws):>8.3f}  {inside}"
        )
    exact = RetryPolicy(jitter=False, max_delay=20.0)
    plain = [exact.delay_for(n) for n in range(1, 8)]
    print(f"jitter off: {plain}  (expected [1, 2, 4, 8, 16, 20, 20])")
    ok = ok and plain == [1, 2, 4, 8, 16, 20, 20]
    started = time.perf_counter()
    for _ in range(samples):
        policy.delay_for(3)
    print(f"delay_for costs {(time.perf_counter() - started) / samples * 1e6:.1f} µs per call")
    return ok


class FailingThenScripted:
    model_name = "flaky"

    def __init__(self, failures: int, replies: list[str]) -> None:
        self.failures, self.inner = failures, ScriptedModel(replies)

    def generate(self, prompt, stop):
        if self.failures:
            self.failures -= 1
            raise ConnectionError("injected")
        return self.inner.generate(prompt, stop)


def real_clock_run() -> bool:
    rose = get_scenario("rose-pricing")
    policy = RetryPolicy(initial_delay=0.05, backoff_factor=2.0, jitter=True, rng=random.Random(3).random)
    executor = rose.executor(FailingThenScripted(3, list(rose.replies)), clock=SystemClock(), retry_policy=policy)
    events = []
    started = time.perf_counter()
    executor.invoke(rose.inputs(), [events.append])
    elapsed = time.perf_counter() - started
    chosen = [e.delay for e in events if e.kind == "retry"]
    overhead = elapsed - sum(chosen)
    print(
        f"\nreal clock: {len(chosen)} retries chose {[round(d, 4) for d in chosen]} = {sum(chosen):.4f} s;"
        f" the run took {elapsed:.4f} s (overhead {overhead * 1000:.1f} ms for the whole run)"
    )
    return len(chosen) == 3 and 0 <= overhead < 0.05


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ok = delay_table(args.samples, args.seed) and real_clock_run()
    print("\nall delays follow the policy" if ok else "\nDELAYS DEPART FROM THE POLICY")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
