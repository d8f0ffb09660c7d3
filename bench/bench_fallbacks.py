"""What a dead endpoint costs a run, with retries only, with a fallback, and with a breaker; and the wrappers' overhead.

Run: uv run python bench/bench_fallbacks.py [--runs 5] [--repeat 300]
Waiting is counted on a ManualClock (the seconds a live run would have slept), so the numbers are
exact and the script is quick. Overhead is wall time per rose-pricing run with scripted models.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import ManualClock, RetryPolicy, ScriptedModel
from executor.recovery.circuit_breaker import reset_breakers, with_breaker
from executor.recovery.fallbacks import with_fallbacks
from tutorials.rose_pricing import REPLIES, SCENARIO

POLICY = RetryPolicy(max_retries=6, initial_delay=1.0, jitter=False)  # the default shape: up to 7 calls


class DeadEndpoint:
    model_name, endpoint = "dead", "http://dead/v1"

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, prompt, stop):
        self.calls += 1
        raise ConnectionError("connection refused")


def cost_of_dead_endpoint(setup: str, runs: int) -> tuple[float, int, int]:
    """(seconds slept, requests sent to the dead endpoint, runs that answered) over `runs` runs."""
    reset_breakers()
    clock, dead, answered = ManualClock(), DeadEndpoint(), 0
    for _ in range(runs):
        backup = ScriptedModel(REPLIES, model_name="backup")
        model = {
            "retries only": dead,
            "fallback": with_fallbacks(dead, [backup]),
            "fallback + breaker": with_fallbacks(with_breaker(dead, failure_threshold=3, cool_down=600.0), [backup]),
        }[setup]
        try:
            SCENARIO.executor(model, clock=clock, retry_policy=POLICY).invoke(SCENARIO.inputs())
            answered += 1
        except Exception:
            pass  # a run that ends in an error counts as not answered; that is what is counted
    return sum(clock.slept), dead.calls, answered


def overhead(setup: str, repeat: int) -> float:
    """Microseconds per run when every model answers (the wrappers' own cost)."""
    reset_breakers()
    start = time.perf_counter()
    for _ in range(repeat):
        model = ScriptedModel(REPLIES, model_name="ok")
        if setup == "breaker":
            model = with_breaker(model)
        elif setup == "fallback + breaker":
            model = with_fallbacks(with_breaker(model), [ScriptedModel(REPLIES, model_name="backup")])
        SCENARIO.executor(model, clock=ManualClock(tick=0.001)).invoke(SCENARIO.inputs())
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    print(
        f"a dead endpoint over {args.runs} rose-pricing runs (4 model calls each), "
        f"retry policy: up to {POLICY.max_retries + 1} attempts, 1 s doubling"
    )
    for setup in ("retries only", "fallback", "fallback + breaker"):
        slept, sent, answered = cost_of_dead_endpoint(setup, args.runs)
        print(
            f"  {setup:<20} waited {slept:8.1f} s   requests to the dead endpoint {sent:4d}   "
            f"runs answered {answered}/{args.runs}"
        )
    overhead("plain", args.repeat)  # warm-up: imports, caches
    print(f"wrapper overhead, all models healthy (best of 3 x {args.repeat} runs)")
    for setup in ("plain", "breaker", "fallback + breaker"):
        best = min(overhead(setup, args.repeat) for _ in range(3))  # best of 3: the machine is shared
        print(f"  {setup:<20} {best:8.0f} µs per run")


if __name__ == "__main__":
    main()
