"""Peak memory (RSS) of the commands issue 34 measured: importing 1,000,000 tiny spans, and exporting a trace
with one 100 MB observation (OTLP JSON; --html and debug --print with --all). Each command runs in its own child
process, which reports its own peak (resource.getrusage), so the figures are the command's alone.

    uv run python bench/bench_memory.py [--spans 1000000] [--spans-per-trace 10] [--observation-mb 100]
        [--only import|export] [--all] [--out DIR]

The target: peak memory within twice the largest single event plus a constant (the interpreter and its
imports, ~100 MB). Figures before and after are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROSE = ROOT / "fixtures" / "rose_pricing.jsonl"
T0 = 1_700_000_000_000_000_000  # ns


def tiny_spans(path: Path, spans: int, per_trace: int) -> None:
    """An OTLP JSON file of `spans` tiny spans (~250 bytes each: a tool call with no input), `per_trace` to a trace id,
    one resourceSpans per 1,000 spans (an exporter's batch)."""
    with path.open("w") as out:
        out.write('{"resourceSpans": [')
        for batch in range(0, spans, 1000):
            items = []
            for number in range(batch, min(batch + 1000, spans)):
                trace, place = divmod(number, per_trace)
                kind = "AGENT" if place == 0 else "TOOL"  # a tool call each: what import turns into events
                span = {
                    "traceId": f"{trace + 1:032x}",
                    "spanId": f"{number + 1:016x}",
                    "name": "s",
                    "startTimeUnixNano": str(T0 + number * 1000),
                    "endTimeUnixNano": str(T0 + number * 1000 + 500),
                    "attributes": [{"key": "openinference.span.kind", "value": {"stringValue": kind}}],
                }
                if place:
                    span["parentSpanId"] = f"{trace * per_trace + 1:016x}"
                items.append(json.dumps(span))
            out.write(("," if batch else "") + '{"resource": {"attributes": []}, "scopeSpans": [{"scope": ')
            out.write('{"name": "bench"}, "spans": [' + ",".join(items) + "]}]}")
        out.write("]}\n")


def big_observation(path: Path, megabytes: int) -> None:
    """The rose run with its first tool_end observation grown to `megabytes` MB."""
    lines = ROSE.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == "tool_end")
    event = json.loads(lines[at])
    event["observation"] += " roses" * (megabytes * 1_000_000 // 6)
    lines[at] = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.write_text("".join(lines), "utf-8")


def peak_of(argv: list[str]) -> tuple[float, int]:
    """(peak RSS in MB, exit code) of `loopscope ARGV` in a child process."""
    code = (
        "import resource, sys\n"
        "from tracer.cli import main\n"
        f"code = main({argv!r})\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, code, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, cwd=ROOT, stdout=subprocess.DEVNULL
    )
    last = [line for line in done.stderr.splitlines() if line.startswith("PEAK")]
    if not last:
        raise SystemExit(f"loopscope {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    _, peak, exit_code = last[-1].split()
    return float(peak), int(exit_code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=1_000_000)
    parser.add_argument("--spans-per-trace", type=int, default=10)
    parser.add_argument("--observation-mb", type=int, default=100)
    parser.add_argument("--only", choices=("import", "export"))
    parser.add_argument("--all", action="store_true", help="also export --html and debug --print")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    print(f"baseline: `loopscope verify` of the rose fixture peaks at {peak_of(['verify', str(ROSE)])[0]:.0f} MB")
    if args.only != "export":
        spans = out / f"tiny-{args.spans}-{args.spans_per_trace}.json"
        if not spans.exists():
            tiny_spans(spans, args.spans, args.spans_per_trace)
        folder = out / "imported"
        peak, code = peak_of(["import", str(spans), "-o", str(folder)])
        size = spans.stat().st_size / 1e6
        print(
            f"import {args.spans:,} tiny spans ({args.spans_per_trace} a trace, {size:.0f} MB): "
            f"peak {peak:.0f} MB ({peak / size:.1f}x the file), exit {code}"
        )
    if args.only != "import":
        trace = out / f"observation-{args.observation_mb}.jsonl"
        if not trace.exists():
            big_observation(trace, args.observation_mb)
        commands = {"export --format otlp-json": ["export", "--format", "otlp-json", "-o", str(out / "o.json")]}
        if args.all:
            commands["export --html"] = ["export", "--html", str(out / "o.html")]
            commands["debug --print"] = ["debug", "--print"]
        for name, argv in commands.items():
            peak, code = peak_of([*argv, str(trace)] if name != "debug --print" else ["debug", str(trace), "--print"])
            print(f"{name}, one {args.observation_mb} MB observation: peak {peak:.0f} MB, exit {code}")


if __name__ == "__main__":
    main()
