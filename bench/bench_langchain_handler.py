"""What LoopscopeCallbackHandler adds to a LangChain run: the classic rose run with and without it, side by side.

Run: uv run python bench/bench_langchain_handler.py [--runs 200] [--rounds 5]
The same process runs LangChain's rose AgentExecutor (a ReAct agent, LLMMathChain, a fake LLM) plain, with a
handler that does nothing (LangChain's own cost of having a callback), and with LoopscopeCallbackHandler writing
its trace to a folder on disk (as a user's run would) and to one in memory (/dev/shm, where it exists: the
same without the disk's fsync at close). Runs are interleaved, one of each in turn, so a busy machine slows
all four alike; the figure is the median of each kind over a round, and the best round's ratio is reported.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.callbacks import BaseCallbackHandler

from tracer import LoopscopeCallbackHandler
from tutorials.langchain_rose_agent import rose_executor, rose_inputs


class NothingHandler(BaseCallbackHandler):
    """A handler with every callback LangChain's default (doing nothing), run inline like loopscope's."""

    run_inline = True


def kinds(disk: Path, memory: Path) -> dict[str, Callable[[], None]]:
    count = [0]

    def traced(folder: Path) -> Callable[[], None]:
        def run() -> None:
            count[0] += 1
            handler = LoopscopeCallbackHandler(folder / f"run{count[0]}.jsonl")
            rose_executor().invoke(rose_inputs(), {"callbacks": [handler]})

        return run

    return {
        "plain": lambda: rose_executor().invoke(rose_inputs()),
        "nothing handler": lambda: rose_executor().invoke(rose_inputs(), {"callbacks": [NothingHandler()]}),
        "loopscope, disk": traced(disk),
        "loopscope, memory": traced(memory),
    }


def one_round(runs: dict[str, Callable[[], None]], count: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in runs}
    gc.collect()
    for _ in range(count):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(found) for name, found in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs of each kind per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    shm = Path("/dev/shm")
    with (
        tempfile.TemporaryDirectory() as disk,
        tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as memory,
    ):
        runs = kinds(Path(disk), Path(memory))
        one_round(runs, 5)  # warm: imports, caches, the interpreter's specialisation
        rounds = [one_round(runs, args.runs) for _ in range(args.rounds)]
    for result in rounds:
        plain = result["plain"]
        print("  ".join(f"{name} {ms * 1000:.2f} ms ({ms / plain:.2f}×)" for name, ms in result.items()))
    best = min(rounds, key=lambda result: result["loopscope, disk"] / result["plain"])
    print(
        f"best round: the handler adds {best['loopscope, disk'] / best['plain'] - 1:.0%} to the run writing to disk, "
        f"{best['loopscope, memory'] / best['plain'] - 1:.0%} writing to memory; "
        f"a handler doing nothing adds {best['nothing handler'] / best['plain'] - 1:.0%}"
    )


if __name__ == "__main__":
    main()
