"""The debugger on a million-event trace (first paint, jumps, continues, search, peak RSS) and every moving key's
latency there and on a 2,000-event trace whose variables are re-executed meanwhile.

Run: uv run python bench/bench_debugger.py [--events 1000000] [--out bench/out] [--keys-only]
The traces are generated once into --out (kept for reruns; delete them to regenerate). Targets
from the issues: first paint < 1 s, jump to end < 200 ms, crossing continue < 2 s, peak RSS <= 500 MB;
searches and filters run off the UI thread (the longest stall of the window is printed with each);
every key that moves (s n r c, S N R C, g G, : ] [) answers within one frame, <= 50 ms from the key
to the frame that shows where it went, on both traces; on the re-executed one `G` paints within
200 ms while the re-execution runs in a worker, and the real locals follow when it is done.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
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

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own long_run_agent: the re-executed run
import long_run_agent

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
        numbers.update(
            {
                f"key {k}" if not k.startswith(" ") else k: v
                for k, v in (await key_latencies(pilot, session, "Calculator")).items()
            }
        )
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


class Frames:
    """When each frame was made: Textual hands every frame to App._display (headless too, where it is not
    written), so the time of the first one after a move is when the window showed it."""

    def __init__(self, app) -> None:
        self.times: list[tuple[float, float]] = []  # (wall clock, the UI thread's CPU clock) at each frame
        display = app._display

        def timed(screen, renderable) -> None:
            if renderable is not None:
                self.times.append((time.perf_counter(), time.thread_time()))
            display(screen, renderable)

        app._display = timed

    def after(self, moment: float) -> float | None:
        return next((wall for wall, _cpu in self.times if wall > moment), None)

    def cpu_after(self, moment: float) -> float:
        return next(cpu for wall, cpu in self.times if wall > moment)


class Moves:
    """When the session last landed somewhere (every motion, jump and search ends in goto)."""

    def __init__(self, session) -> None:
        self.last = 0.0
        goto = session.goto

        def timed(position: int) -> None:
            goto(position)
            self.last = time.perf_counter()

        session.goto = timed


# (label, keys pressed, the answer typed into its question, if it asks one): every key that moves.
MOVING_KEYS = [
    ("s step", ("s",), None),
    ("n next", ("n",), None),
    ("r step out", ("r",), None),
    ("S step back", ("S",), None),
    ("N next back", ("N",), None),
    ("R out back", ("R",), None),
    ("G last", ("G",), None),
    ("g first", ("g",), None),
    ("c continue (to the end)", ("c",), None),
    ("C continue back (to the start)", ("C",), None),
    (": go to event", ("colon",), "MIDDLE"),
    ("] next match", ("right_square_bracket",), None),
    ("[ previous match", ("left_square_bracket",), None),
]


async def key_latencies(
    pilot, session, search_text: str, keys=MOVING_KEYS, middle: int | None = None, busy=lambda: False
) -> dict[str, float]:
    """Seconds from each moving key (or the enter that answers its question) to the first frame made after
    the session landed, and the UI thread's CPU time for it; each from `middle` (default: the middle)."""
    from textual.widgets import Input

    frames, moves = Frames(pilot.app), Moves(session)
    session.search_text = search_text
    middle = len(session) // 2 if middle is None else middle
    numbers: dict[str, float] = {"  pressed while busy": 0}
    for label, pressed, answer in keys:
        session.goto(middle)  # from the middle every key has somewhere to go
        pilot.app.screen.refresh_panes()
        await pilot.pause()
        landed = moves.last
        if answer is not None:
            await pilot.press(*pressed)
            await until(pilot, lambda: bool(pilot.app.screen.query(Input)))
            pilot.app.screen.query_one(Input).value = str(middle + 7)
            pressed = ("enter",)
        numbers["  pressed while busy"] += busy()
        started, working = time.perf_counter(), time.thread_time()
        await pilot.press(*pressed)
        await until(pilot, lambda landed=landed: moves.last > landed and frames.after(moves.last) is not None)
        numbers[label] = frames.after(moves.last) - started
        # The UI thread's own work for the key (CPU time): what the latency is on an idle machine,
        # less any wait for the GIL while a worker holds it.
        numbers[f"  {label}: UI thread CPU"] = frames.cpu_after(moves.last) - working
    return numbers


def reexecuted_trace(out: Path) -> Path:
    """The long_run_agent's recording (1,992 events; its variables come from re-executing it), made once."""
    path = out / "bench_debugger_reexecuted.jsonl"
    if not path.exists():
        out.mkdir(parents=True, exist_ok=True)
        long_run_agent.record(path)
    return path


async def measure_reexecuted(path: Path) -> dict[str, float]:
    """On a trace re-executed for its variables: G from the first event (the re-execution starts, the
    frame must not wait for it) and how long the real locals take to follow; then each moving key in
    a window of its own, pressed while the re-execution runs towards event 1,000. Run after the
    million-event trace: fifteen windows in one process raise its peak RSS, which that trace's figure
    would otherwise show (and a spawned child inherits the peak Linux reports)."""
    from tests.helpers.pilot_helpers import pane_text
    from tracer.tui.app import DebuggerApp

    numbers: dict[str, float] = {}
    session = _reexecuted_session(path)
    reenactment = session.store.reenactment
    app = DebuggerApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("1")  # the variables pane
        await until(pilot, lambda: len(reenactment.snapshots) >= 1)
        frames, last, stalls = Frames(app), len(session) - 1, Stalls(app)
        started = time.perf_counter()
        await pilot.press("G")
        await until(pilot, lambda: session.position == last and frames.after(started) is not None)
        numbers["G: the last event painted (re-execution starts)"] = frames.after(started) - started
        await until(pilot, lambda: "Real locals" in pane_text(app, "variables-text"))
        numbers["  the real locals there, since G"] = time.perf_counter() - started
        numbers["  longest UI stall meanwhile"] = stalls.longest
    session.store.close()
    busy = 0
    for label, keys, answer in MOVING_KEYS:
        session = _reexecuted_session(path)
        reenactment = session.store.reenactment
        app = DebuggerApp(session)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("1")
            await until(pilot, lambda reenactment=reenactment: len(reenactment.snapshots) >= 1)
            moved = await key_latencies(  # busy: asked just before the key, still re-executing towards event 1,000
                pilot,
                session,
                "Calculator",
                [(label, keys, answer)],
                middle=1_000,
                busy=functools.partial(reenactment.pending, 1_000),
            )
            busy += moved.pop("  pressed while busy")
            numbers.update(moved)
        session.store.close()
    numbers["  keys that answered while the re-execution ran"] = busy
    return numbers


def _reexecuted_session(path: Path):
    from tracer.debug.options import DebuggerOptions
    from tracer.tui.launch import build_session

    session = build_session(path, options=DebuggerOptions(agents=(long_run_agent.SPEC,)))
    session.breakpoints.items.clear()
    session.breakpoints.path = None  # the bench's breakpoints are not the user's: no sidecar
    assert session.store.reenactment.problem is None, session.store.reenactment.problem
    return session


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
    parser.add_argument("--keys-only", action="store_true", help="only the keys on the re-executed 2,000-event trace")
    args = parser.parse_args()
    if not args.keys_only:  # first: the peak RSS measured is the million-event trace's alone
        report(measure_million(args))
    reexecuted = reexecuted_trace(args.out)
    with TraceFile(reexecuted) as trace:
        print(f"re-executed trace: {len(trace):,} events (long_run_agent.py), keys while its variables re-execute")
    report(asyncio.run(measure_reexecuted(reexecuted)))


def measure_million(args: argparse.Namespace) -> dict[str, float]:
    path = args.out / f"bench_debugger_{args.events}.jsonl"
    if not path.exists():
        args.out.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        generate(path, args.events)
        print(f"generated {path} in {time.perf_counter() - started:.1f}s (run again to measure RSS)", file=sys.stderr)
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
    return numbers


def report(numbers: dict[str, float]) -> None:
    labels = {label for label, _keys, _answer in MOVING_KEYS}
    keys = {name: value for name, value in numbers.items() if name.removeprefix("key ") in labels}
    work = {name: value for name, value in numbers.items() if name.endswith(": UI thread CPU")}
    for name, value in numbers.items():
        unit = "" if "MB" in name or "events" in name or "keys" in name or name.strip() == "bars" else " s"
        print(f"  {name:<56} {value:8.3f}{unit}")
    if keys:
        worst = max(keys, key=keys.__getitem__)
        met = "met" if keys[worst] <= 0.05 else "NOT met"
        print(f"  worst moving key: {worst} {keys[worst] * 1000:.0f} ms (target <= 50 ms: {met})")
        most = max(work, key=work.__getitem__)
        print(f"  most UI-thread CPU for a key: {most.strip()} {work[most] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
