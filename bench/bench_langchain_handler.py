"""What LoopscopeCallbackHandler adds to a LangChain run: the classic rose run with and without it, side by side.

Run: uv run python bench/bench_langchain_handler.py [--runs 200] [--rounds 5] [--against main]
The same process runs LangChain's rose AgentExecutor (a ReAct agent, LLMMathChain, a fake LLM) plain, with a
handler that does nothing (LangChain's own cost of having a callback), and with LoopscopeCallbackHandler writing
its trace to a folder on disk (as a user's run would) and to one in memory (/dev/shm, where it exists: the
same without the disk's fsync at close), and writing to disk with `sync=False` (no fsync at close). Runs are
interleaved, one of each in turn, so a busy machine slows all kinds alike; the figure is the median of each
kind over a round, and the best round's ratio is reported, in wall-clock time and in CPU time (which a
busy machine disturbs less, and which leaves out the wait for the disk). `--against REF` adds the handler of a git
revision (its `tracer` package copied out with `git archive` and imported under another name, with this
checkout's executor), writing to memory and to disk, so before and after are timed in the same process.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.callbacks import BaseCallbackHandler

from tracer import LoopscopeCallbackHandler
from tutorials.langchain_rose_agent import rose_executor, rose_inputs

ROOT = Path(__file__).resolve().parent.parent


class NothingHandler(BaseCallbackHandler):
    """A handler with every callback LangChain's default (doing nothing), run inline like loopscope's."""

    run_inline = True


def handler_at(ref: str, into: Path) -> Any:
    """LoopscopeCallbackHandler as it is at git revision `ref`: its tracer package, renamed, imported from `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "tracer"], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(
            f"--against {ref}: git archive failed ({archive.stderr.decode().strip()}); name a git revision"
        )
    name = "tracer_" + re.sub(r"\W", "_", ref)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    (into / "tracer").rename(into / name)
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{name}.bridges.langchain_handler").LoopscopeCallbackHandler


def kinds(disk: Path, memory: Path, against: tuple[str, Any] | None) -> dict[str, Callable[[], None]]:
    count = [0]

    def traced(folder: Path, handler: Any = LoopscopeCallbackHandler, **options: Any) -> Callable[[], None]:
        def run() -> None:
            count[0] += 1
            traced_by = handler(folder / f"run{count[0]}.jsonl", **options)
            rose_executor().invoke(rose_inputs(), {"callbacks": [traced_by]})

        return run

    found = {
        "plain": lambda: rose_executor().invoke(rose_inputs()),
        "nothing handler": lambda: rose_executor().invoke(rose_inputs(), {"callbacks": [NothingHandler()]}),
        "loopscope, disk": traced(disk),
        "loopscope, memory": traced(memory),
        "loopscope, disk, sync=False": traced(disk, sync=False),
    }
    if against is not None:
        ref, handler = against
        found[f"{ref}, disk"] = traced(disk, handler)
        found[f"{ref}, memory"] = traced(memory, handler)
    return found


def one_round(runs: dict[str, Callable[[], None]], count: int) -> tuple[dict[str, float], dict[str, float]]:
    """The median wall-clock time of each kind, and its median CPU time (the process's, all threads)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    gc.collect()
    for _ in range(count):
        for name, run in runs.items():
            started, started_cpu = time.perf_counter(), time.process_time()
            run()
            times[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - started_cpu)
    return (
        {name: statistics.median(found) for name, found in times.items()},
        {name: statistics.median(found) for name, found in cpu.items()},
    )


def show(rounds: list[dict[str, float]], what: str) -> None:
    print(f"{what}, the median of each round:")
    for result in rounds:
        plain = result["plain"]
        print("  ".join(f"{name} {ms * 1000:.2f} ms ({ms / plain:.2f}×)" for name, ms in result.items()))
    best = min(rounds, key=lambda result: result["loopscope, memory"] / result["plain"])
    print(
        f"{what}, best round: the handler adds "
        + ", ".join(f"{best[name] / best['plain'] - 1:.0%} ({name})" for name in best if name != "plain")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs of each kind per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="REF", help="also time the handler of this git revision (e.g. main)")
    args = parser.parse_args()
    shm = Path("/dev/shm")
    with (
        tempfile.TemporaryDirectory() as disk,
        tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as memory,
        tempfile.TemporaryDirectory() as copies,
    ):
        against = (args.against, handler_at(args.against, Path(copies))) if args.against else None
        runs = kinds(Path(disk), Path(memory), against)
        one_round(runs, 5)  # warm: imports, caches, the interpreter's specialisation
        rounds = [one_round(runs, args.runs) for _ in range(args.rounds)]
    print(f"load average {' '.join(f'{load:.1f}' for load in os.getloadavg())} at the end")
    show([wall for wall, _cpu in rounds], "wall clock")
    # CPU time leaves out the time a busy machine keeps the process waiting for a core (and an fsync's wait)
    show([cpu for _wall, cpu in rounds], "CPU time")


if __name__ == "__main__":
    main()
