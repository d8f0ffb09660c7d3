"""The debugger on a million-event trace: first paint, jump to end, crossing continues, search, peak RSS.

Run: uv run python bench/bench_debugger.py [--events 1000000] [--out bench/out]
The trace is generated once into --out (kept for reruns; delete it to regenerate). Targets
from the issue: first paint < 1 s, jump to end < 200 ms, crossing continue < 2 s, peak RSS <= 500 MB;
searches and filters run off the UI thread (the longest stall of the window is printed with each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from executor import ManualClock, ScriptedModel
from tracer.debug.breakpoints import BreakpointSet
from tracer.debug.event_store import INDEX_NOW_LIMIT
from tracer.trace.index import TraceIndex, cache_path
from tracer.trace.reader import TraceFile
from tracer.trace.writer import TraceWriter
from tutorials.rose_pricing import REPLIES, SCENARIO

PROMPT_CHARS = 240  # a trimmed prompt per call: real million-event runs cannot resend everything
OBSERVATION_CHARS = 120


def rose_events(directory: Path) -> tuple[str, list[dict]]:
    """The rose-pricing run, recorded now, as (header line, event dicts)."""
    path = directory / "rose.jsonl"
    executor = SCENARIO.executor(ScriptedModel(REPLIES), clock=ManualClock(tick=0.001), run_id_factory=lambda: "bench")
    with TraceWriter(path, scenario="bench") as writer:
        executor.invoke(SCENARIO.inputs(), [writer])
    header, *_lines = path.read_text(encoding="utf-8").splitlines()
    with TraceFile(path) as trace:  # decoded, so base+append prompts come back whole
        return header, [event.model_dump(mode="json") for event in trace]


def generate(path: Path, events: int) -> None:
    """Iterations 1-2 of the rose run repeated, then a limit_reached (a kind that occurs once) and the end."""
    with tempfile.TemporaryDirectory() as scratch:
        header, rose = rose_events(Path(scratch))
    body = [dict(e) for e in rose[1:18]]
    for event in body:  # trimmed so the average line is ~400 bytes, as in the estimate
        if event["kind"] == "llm_start":
            event["prompt"] = event["prompt"][:PROMPT_CHARS]
        if "observation" in event:
            event["observation"] = event["observation"][:OBSERVATION_CHARS]
    ending = [
        dict(
            rose[0],
            kind="limit_reached",
            reason="max_iterations",
            iterations=0,
            elapsed=0.0,
            early_stopping_method="force",
        ),
        rose[20],
        rose[22],
    ]
    for event in ending[:1]:
        for key in ("inputs", "tools", "settings"):
            event.pop(key)
        event["frames"], event["source"] = rose[21]["frames"], rose[21]["source"]
    seq, iteration = 0, 0
    # Each repetition starts where the one before ended, so time runs forward as in a real run (the
    # waterfall draws it; a copy of the same times would pile every round onto the first).
    lap = body[-1]["t"] - body[0]["t"] + 0.001
    with open(path, "w", encoding="utf-8") as out:
        out.write(header + "\n")

        def write(event: dict, it: int) -> None:
            nonlocal seq
            shifted = {**event, "seq": seq, "iteration": it, "t": round(event["t"] + max(it - 1, 0) * lap, 6)}
            out.write(json.dumps(shifted, ensure_ascii=False, separators=(",", ":")) + "\n")
            seq += 1

        write(rose[0], 0)
        while seq + len(body) + len(ending) <= events:
            iteration += 1
            for event in body:
                write(event, iteration)
        for event in ending:
            write(event, iteration)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_peak_rss_mb() -> float:
    """The largest child's peak: the process that scans a big trace for its index (0 when none ran)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


class Stalls:
    """The longest time the app's event loop went without running a 10 ms timer: how long the
    window could not paint or take a key (work on the UI thread shows here, a worker's does not)."""

    def __init__(self, app) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        app.set_interval(0.01, self.tick)

    def tick(self) -> None:
        now = time.perf_counter()
        self.longest, self.last = max(self.longest, now - self.last), now

    def reset(self) -> None:
        self.last, self.longest = time.perf_counter(), 0.0


async def measure_app(path: Path) -> dict[str, float]:
    from tracer.tui.app import DebuggerApp
    from tracer.tui.launch import build_session

    numbers: dict[str, float] = {}
    started = time.perf_counter()
    session = build_session(path)
    numbers["open trace (TraceFile scan)"] = time.perf_counter() - started
    session.breakpoints.items.clear()
    session.breakpoints.path = None  # the bench's breakpoints are not the user's: no sidecar
    app = DebuggerApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        numbers["first paint"] = time.perf_counter() - started
        numbers["G: jump to end"] = await timed(pilot, "G", lambda: session.position == len(session) - 1)
        await until(pilot, lambda: session.index_ready)
        numbers["index ready (background, since open)"] = time.perf_counter() - started
        session.breakpoints.add("limit_reached", save=False)
        session.goto(0)
        numbers["c: continue 0 → limit_reached"] = await timed(
            pilot, "c", lambda: session.event().kind == "limit_reached"
        )
        session.breakpoints.items.clear()
        session.breakpoints.add("chain_start", save=False)
        session.goto(len(session) - 1)
        numbers["C: reverse continue end → chain_start"] = await timed(pilot, "C", lambda: session.position == 0)
        session.breakpoints.items.clear()
        session.goto(0)
        session.breakpoints.add(f"if iteration == {session.event(len(session) - 1).iteration}", save=False)
        numbers["c: condition on an indexed field"] = await timed(pilot, "c", lambda: session.position > 0)
        session.breakpoints.items.clear()
        numbers.update(await measure_scans(app, pilot, session))
        numbers.update(await measure_waterfall(app, pilot, session))
    numbers["peak RSS MB"] = peak_rss_mb()
    numbers["peak RSS MB, index-scan process"] = child_peak_rss_mb()
    return numbers


async def measure_scans(app, pilot, session) -> dict[str, float]:
    """What reads every line, through the keys a user presses: / search, F filter, c with a condition
    the index cannot answer; with the longest stall of the window meanwhile."""
    numbers: dict[str, float] = {}
    stalls = Stalls(app)
    session.goto(0)
    stalls.reset()
    numbers["/ search: text only near the end"] = await asked(
        pilot, "slash", "max_iterations", lambda: session.position > len(session) - 5
    )
    numbers["  longest UI stall during the search"] = stalls.longest
    stalls.reset()
    numbers["F filter: a condition the index cannot answer"] = await asked(
        pilot, "F", 'if tool_input == "no such input"', lambda: session.shown() is not None and not busy(app)
    )
    numbers["  longest UI stall during the filter"] = stalls.longest
    assert len(session.shown()) == 0
    await asked(pilot, "F", "", lambda: session.shown() is None)
    session.breakpoints.add('if tool_input == "no such input"', save=False)
    session.goto(0)
    stalls.reset()
    numbers["c: condition the index cannot answer (to the end)"] = await timed(
        pilot, "c", lambda: session.position == len(session) - 1
    )
    numbers["  longest UI stall during that continue"] = stalls.longest
    session.breakpoints.items.clear()
    return numbers


async def measure_waterfall(app, pilot, session) -> dict[str, float]:
    """`w`: the waterfall of every event, read in a worker; then drawing it whole, zoomed, and moving in it."""
    from tracer.tui.panes.waterfall_pane import WaterfallPane

    numbers: dict[str, float] = {}
    pane = app.screen.query_one(WaterfallPane)
    stalls = Stalls(app)
    session.goto(len(session) // 2)
    stalls.reset()
    numbers["w: the waterfall read (worker, bars of every event)"] = await timed(
        pilot, "w", lambda: pane.waterfall is not None
    )
    numbers["  longest UI stall while it was read"] = stalls.longest
    numbers["  bars"] = float(len(pane.waterfall))
    numbers["waterfall: every row drawn, the whole run (aggregated)"] = drawn(pane)
    await pilot.press(*["plus"] * 10)
    numbers["waterfall: every row drawn, zoomed 1,024x"] = drawn(pane)
    position = session.position
    numbers["waterfall: → to the next bar (the debugger follows)"] = await timed(
        pilot, "right", lambda: session.position != position
    )
    return numbers


def drawn(pane) -> float:
    started = time.perf_counter()
    for y in range(pane.size.height):
        pane.render_line(y)
    return time.perf_counter() - started


def busy(app) -> bool:
    return any(worker.group in ("search", "filter") and not worker.is_finished for worker in app.workers)


async def asked(pilot, key: str, answer: str, done) -> float:
    """Press `key`, answer its question with `answer` and enter; seconds from enter until done()."""
    from textual.widgets import Input

    await pilot.press(key)
    await until(pilot, lambda: bool(pilot.app.screen.query(Input)))
    pilot.app.screen.query_one(Input).value = answer
    started = time.perf_counter()
    await pilot.press("enter")
    await until(pilot, lambda: not busy(pilot.app) and done())
    return time.perf_counter() - started


async def timed(pilot, key: str, done) -> float:
    started = time.perf_counter()
    await pilot.press(key)
    await until(pilot, done)
    return time.perf_counter() - started


async def until(pilot, done, timeout: float = 120.0) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("the debugger did not get there")
        await pilot.pause(0.005)


def measure_parts(path: Path) -> dict[str, float]:
    """The pieces on their own (run in a fresh process so RSS is theirs alone)."""
    started = time.perf_counter()
    trace = TraceFile(path)
    opened = time.perf_counter() - started
    started = time.perf_counter()
    index = TraceIndex.build(trace)
    built = time.perf_counter() - started
    marks = BreakpointSet()
    marks.add("limit_reached", save=False)
    started = time.perf_counter()
    hit = marks.first_stop(index, lambda i: {}, 1, len(index) - 1, 1)
    crossing = time.perf_counter() - started
    assert hit is not None
    return {
        "TraceFile open": opened,
        "TraceIndex.build": built,
        "breakpoint scan 1M": crossing,
        "peak RSS MB": peak_rss_mb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out")
    parser.add_argument("--parts", action="store_true", help="measure open/index/scan without the app")
    args = parser.parse_args()
    path = args.out / f"bench_debugger_{args.events}.jsonl"
    if not path.exists():
        args.out.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        generate(path, args.events)
        print(f"generated {path} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    with TraceFile(path) as trace:
        size = path.stat().st_size / 1e6
        print(f"trace: {len(trace):,} events, {size:,.0f} MB")
    Path(cache_path(path)).unlink(missing_ok=True)  # measure a first open; it writes the cache
    numbers = measure_parts(path) if args.parts else asyncio.run(measure_app(path))
    if not args.parts and args.events > INDEX_NOW_LIMIT:  # smaller traces are indexed at open, not cached
        with TraceFile(path) as trace:
            started = time.perf_counter()
            assert TraceIndex.cached(path, len(trace)) is not None
        numbers["reopen: index loaded from its cache"] = time.perf_counter() - started
    for name, value in numbers.items():
        unit = "" if "MB" in name or name.strip() == "bars" else " s"
        print(f"  {name:<52} {value:8.3f}{unit}")


if __name__ == "__main__":
    main()
