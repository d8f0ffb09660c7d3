"""`loopscope runs` over many traces: the shipped fixtures copied N times, listed cold and warm, and --where.

Run: uv run python bench/bench_runs.py [--traces 10000] [--repeat 3]
Each figure is the whole command in a fresh interpreter (`loopscope runs DIR --json > /dev/null`), best of
--repeat: cold with no catalogue, warm with it, then --where on an indexed event field, a run field and an
event's payload (which reads the traces that have such events). Targets (issue 28, for 2,000 traces): cold
≤ 3 s, warm ≤ 1 s, --where warm ≤ 1 s. Also the catalogue's size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures").rglob("*.jsonl"))
WHERE = {
    "--where kind (the catalogue's shapes)": 'kind == "tool_error"',
    "--where tool and iteration": 'tool == "Search" and iteration >= 3',
    "--where a run field": "cost > 0.001",
    "--where an event's payload (reads traces)": 'error_type == "ToolError"',
}


def make_traces(folder: Path, count: int) -> None:
    for number in range(count):
        source = FIXTURES[number % len(FIXTURES)]
        target = folder / f"batch{number // 500:03d}" / f"{number:05d}-{source.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def timed(argv: list[str], environment: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    command = [sys.executable, "-m", "tracer.cli", "runs"]
    with tempfile.TemporaryDirectory() as tmp:
        folder, catalogue = Path(tmp) / "traces", Path(tmp) / "runs.sqlite"
        make_traces(folder, args.traces)
        time.sleep(1.1)  # past the catalogue's racy window: a file written within 1 s of a listing is read again
        environment = {**os.environ, "LOOPSCOPE_CATALOGUE": str(catalogue)}
        cold = []
        for _ in range(args.repeat):
            catalogue.unlink(missing_ok=True)
            cold.append(timed([*command, str(folder), "--json"], environment))
        warm = [timed([*command, str(folder), "--json"], environment) for _ in range(args.repeat)]
        print(f"{args.traces:,} traces ({sum(p.stat().st_size for p in folder.rglob('*.jsonl')) / 1e6:.0f} MB)")
        print(f"  cold (no catalogue): {min(cold):.2f} s   warm: {min(warm):.2f} s")
        for label, condition in WHERE.items():
            best = min(
                timed([*command, str(folder), "--json", "--where", condition], environment) for _ in range(args.repeat)
            )
            print(f"  {label}, warm: {best:.2f} s")
        by_tool = min(timed([*command, str(folder), "--by", "tool"], environment) for _ in range(args.repeat))
        print(f"  --by tool, warm: {by_tool:.2f} s")
        print(
            f"  catalogue: {catalogue.stat().st_size / 1e6:.1f} MB ({catalogue.stat().st_size / args.traces / 1e3:.1f} kB a trace)"
        )


if __name__ == "__main__":
    main()
