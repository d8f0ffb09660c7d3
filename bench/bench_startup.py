"""Every command that opens the debugger, process start to its whole first frame, side by side with hello-world Textual.

Run: uv run python bench/bench_startup.py [--repeat 5] [--only TEXT] [--no-bytecode]
Another checkout's code through the same bench: `git archive main | tar -x -C /tmp/main`, then
`PYTHONPATH=/tmp/main uv run python bench/bench_startup.py` (the children import that tree first).

Each command runs as a user runs it, on a pseudo-terminal 120x40, and the bench reads what it
writes until the first whole frame is on it, then kills it. The baseline is bench/hello_textual.py
(a Static and a Footer) under the same Python; the target is each command's median within 1.5x of
the baseline's, measured in the same rounds (the commands take turns, so a busy moment falls on all
of them). A whole frame has: the call-stack pane's title, its `← this event` row, a footer key, and
the source pane titled with the event's line and showing that line marked ▶ (or that it has no source for it, or the narration
of a tutorial's first stop in its place) (waiting for
"Call stack" alone ended too early: a tutorial's narration names the pane before it is drawn).

- every tutorial (`loopscope tutorial NAME --lang en`), `loopscope debug` of two recorded traces and
  of an imported Langfuse file, `loopscope debug --live rose-pricing`;
- serve's page: the command `loopscope serve` starts for each browser tab, with textual-serve's web
  driver, reading its packets from a pipe (the browser and websocket add the same to any app);
- `loopscope --help` and `loopscope run --help` to exit, against `python -c "import argparse"`
  (target 1.2x).
Warm start: bytecode cached (a thrown-away first round writes what is missing). --no-bytecode
compiles every module at every start (PYTHONDONTWRITEBYTECODE=1, an empty PYTHONPYCACHEPREFIX).

The cpu column is each child's CPU time until it was killed, which on a busy machine includes what
it did after the frame while the bench waited for its turn. --cpu instead runs each debugger command
(and the hello-world app) in bench/first_frame_probe.py, which writes down the process's CPU time at
the moment it writes its first whole frame: a ratio a busy machine cannot skew (the wall clock's it can).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pty
import re
import resource
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# What the first whole frame has drawn, each as its bytes on the terminal (between colour codes):
# the call-stack pane's title, its row for the event's own frame, and a key of the footer.
MARKERS = (b" Call stack \x1b[", "← this event".encode(), b"scroll the pane")
# The source pane's title names the frame's file and line; the pane must show that line, marked ▶.
SOURCE_TITLE = re.compile(rb"\(\) \xc2\xb7 [^ \x1b]+:(\d+) ")
# An imported run names no file of ours: the pane says so in place of the source.
NO_SOURCE = b"source not found: "
# Or, at a tutorial stop with a pane of its own, the source pane is the narration: its title and first line.
NARRATION = ("Narration · the ".encode(), b"Stop 1/")
CODES = rb"(?:\x1b\[[0-9;]*m| )*"
HELLO_MARKERS = (b"Hello from Textual", b"quit the hello-world app")
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
SIZE = {"COLUMNS": "120", "LINES": "40", "ROWS": "40"}


def whole_frame(seen: bytes) -> bool:
    """Whether the output so far has drawn the debugger's first whole frame (see MARKERS and SOURCE_TITLE)."""
    if not all(marker in seen for marker in MARKERS):
        return False
    if all(marker in seen for marker in NARRATION):  # a tutorial's first stop shows its narration there
        return True
    title = SOURCE_TITLE.search(seen)
    if title is None:
        return False
    return NO_SOURCE in seen or re.search("▶".encode() + CODES + title.group(1) + b" ", seen) is not None


def hello_frame(seen: bytes) -> bool:
    return all(marker in seen for marker in HELLO_MARKERS)


@dataclass
class Case:
    """One command: how it runs (pty, web: serve's driver on a pipe, exit: to its end) and when it is done."""

    label: str
    command: list[str]
    how: str = "pty"
    done: Callable[[bytes], bool] = whole_frame
    baseline: str = "hello-world Textual app"
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the process's CPU seconds (user + system) to the same point
    cpu_at_frame: list[float] = field(default_factory=list)  # CPU seconds at the first whole frame (--cpu)


def _child_environment(environment: dict[str, str | None]) -> dict[str, str]:
    child = dict(os.environ, TERM="xterm-256color", **SIZE)
    for name, value in environment.items():
        if value is None:
            child.pop(name, None)
        else:
            child[name] = value
    return child


def on_pty(case: Case, environment: dict[str, str], timeout: float = 20.0) -> float:
    """Seconds from fork to the first whole frame on a pseudo-terminal."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command, with a terminal the size of a laptop window
        os.chdir(ROOT)
        os.execvpe(case.command[0], case.command, environment)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if case.done(seen):
                    return time.perf_counter() - started
        raise TimeoutError(f"{case.label}: no first frame within {timeout}s; output began {seen[:300]!r}")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def on_web_driver(case: Case, environment: dict[str, str], timeout: float = 20.0) -> float:
    """Seconds to the first whole frame of the process serve starts per browser tab: the web driver's
    data packets (b"D", a 4-byte length, the terminal output) read from its stdout pipe."""
    environment = dict(environment, TEXTUAL_DRIVER=WEB_DRIVER, TEXTUAL_FPS="60", TEXTUAL_COLOR_SYSTEM="truecolor")
    started = time.perf_counter()
    child = subprocess.Popen(
        case.command, cwd=ROOT, env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdout is not None
    raw, seen = b"", b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([child.stdout], [], [], 0.05)
            if not ready:
                continue
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                break
            raw += chunk
            raw = raw.split(b"__GANGLION__\n", 1)[-1]
            while len(raw) >= 5 and len(raw) >= 5 + int.from_bytes(raw[1:5], "big"):
                size = int.from_bytes(raw[1:5], "big")
                if raw[:1] == b"D":
                    seen += raw[5 : 5 + size]
                raw = raw[5 + size :]
            if case.done(seen):
                return time.perf_counter() - started
        raise TimeoutError(f"{case.label}: no first frame within {timeout}s; output began {seen[:300]!r}")
    finally:
        child.kill()
        child.communicate()


def to_exit(case: Case, environment: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(case.command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


MEASURE = {"pty": on_pty, "web": on_web_driver, "exit": to_exit}


def cases(scratch: Path) -> list[Case]:
    from tests.helpers.foreign_traces import write_langfuse
    from tutorials.registry import TUTORIALS

    python = sys.executable
    loopscope = str(Path(python).parent / "loopscope")
    imported = write_langfuse(scratch / "langfuse_trace.json")
    rose = str(ROOT / "fixtures" / "rose_pricing.jsonl")
    return [
        Case("hello-world Textual app", [python, str(ROOT / "bench" / "hello_textual.py")], done=hello_frame),
        *(Case(f"tutorial {name}", [loopscope, "tutorial", name, "--lang", "en"]) for name in TUTORIALS),
        Case("debug fixtures/rose_pricing.jsonl", [loopscope, "debug", rose]),
        Case("debug fixtures/iteration_limit.jsonl", [loopscope, "debug", "fixtures/iteration_limit.jsonl"]),
        Case("debug an imported Langfuse file", [loopscope, "debug", str(imported)]),
        Case(
            "debug --live rose-pricing",
            [loopscope, "debug", "--live", "rose-pricing", "--record", str(scratch / "live.jsonl")],
        ),
        Case("serve's page: debug TRACE", [python, "-m", "tracer.cli", "debug", rose], how="web"),
        Case(
            "serve's page: tutorial rose-pricing",
            [python, "-m", "tracer.cli", "tutorial", "rose-pricing", "--lang", "en"],
            how="web",
        ),
        Case(
            "python -c 'import argparse'",
            [python, "-c", "import argparse"],
            how="exit",
            baseline="python -c 'import argparse'",
        ),
        Case("loopscope --help", [loopscope, "--help"], how="exit", baseline="python -c 'import argparse'"),
        Case("loopscope run --help", [loopscope, "run", "--help"], how="exit", baseline="python -c 'import argparse'"),
    ]


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def report(chosen: list[Case], by_label: dict[str, Case]) -> None:
    print(f"{'command':<40} {'best':>6} {'median':>6} {'cpu':>6}  wall: ratio of medians (of bests); cpu: of medians")
    for case in chosen:
        best, median, cpu = min(case.times), statistics.median(case.times), statistics.median(case.cpu)
        base = by_label.get(case.baseline)
        if base is None or base is case:
            ratio = "baseline"
        else:
            target = 1.2 if case.how == "exit" else 1.5
            mine = median / statistics.median(base.times)
            met = "met" if mine <= target else "NOT met"
            ratio = (
                f"{mine:.2f}x ({best / min(base.times):.2f}x), cpu {cpu / statistics.median(base.cpu):.2f}x"
                f"  target <= {target}x: {met}"
            )
        print(f"{case.label:<40} {best * 1000:4.0f}ms {median * 1000:4.0f}ms {cpu * 1000:4.0f}ms  {ratio}")


def probed(case: Case) -> Case:
    """The same command through bench/first_frame_probe.py (this Python, loopscope's own entry point)."""
    python, probe = sys.executable, str(ROOT / "bench" / "first_frame_probe.py")
    if case.done is hello_frame:
        return Case(case.label, [python, probe, "hello"], case.how, case.done, case.baseline)
    command = case.command  # `loopscope ARGS` or serve's `python -m tracer.cli ARGS`
    loopscope_args = command[1:] if command[0].endswith("loopscope") else command[command.index("tracer.cli") + 1 :]
    return Case(case.label, [python, probe, "loopscope", *loopscope_args], case.how, case.done, case.baseline)


def until_exit(case: Case, environment: dict[str, str], timeout: float = 30.0) -> None:
    """Run the probed command on a pty (or serve's web driver) until it exits, which it does at its frame."""
    if case.how == "web":
        environment = dict(environment, TEXTUAL_DRIVER=WEB_DRIVER, TEXTUAL_FPS="60", TEXTUAL_COLOR_SYSTEM="truecolor")
        subprocess.run(
            case.command, cwd=ROOT, env=environment, input=b"", capture_output=True, timeout=timeout, check=False
        )
        return
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execvpe(case.command[0], case.command, environment)
    started = time.perf_counter()
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    if not os.read(fd, 65536):
                        break
                except OSError:  # the child has gone: its pty closed
                    break
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have ended by itself
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def measure_cpu_at_frame(cases_: list[Case], environment: dict[str, str], repeat: int, scratch: Path) -> None:
    out = scratch / "probe.txt"
    for round_ in range(repeat + 1):
        for case in cases_:
            out.unlink(missing_ok=True)
            path = os.pathsep.join(filter(None, [environment.get("PYTHONPATH"), str(ROOT / "bench")]))
            until_exit(probed(case), dict(environment, PROBE_OUT=str(out), PYTHONPATH=path))
            if not out.exists():
                raise RuntimeError(f"{case.label}: the probe saw no first frame")
            if round_:
                case.cpu_at_frame.append(float(out.read_text().split()[0]))


def report_cpu_at_frame(cases_: list[Case]) -> None:
    base = statistics.median(cases_[0].cpu_at_frame)
    print("\nCPU time at the first whole frame (bench/first_frame_probe.py), median, and its ratio to the hello app's")
    for case in cases_:
        cpu = statistics.median(case.cpu_at_frame)
        met = (
            ""
            if case is cases_[0]
            else f"  {cpu / base:.2f}x  target <= 1.5x: {'met' if cpu / base <= 1.5 else 'NOT met'}"
        )
        print(f"{case.label:<40} {cpu * 1000:5.0f} ms{met}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", action="append", default=[], help="only commands whose label has this text")
    parser.add_argument("--no-bytecode", action="store_true", help="compile every module at every start")
    parser.add_argument("--cpu", action="store_true", help="also each command's CPU time at its first frame (a probe)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        every = cases(Path(scratch))
        by_label = {case.label: case for case in every}
        wanted = [c for c in every if not args.only or any(text in c.label for text in args.only)]
        chosen = [
            by_label[label] for label in dict.fromkeys([*(c.baseline for c in wanted), *(c.label for c in wanted)])
        ]
        changes: dict[str, str | None] = {"PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}
        if args.no_bytecode:
            changes = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(Path(scratch) / "no-cache")}
        environment = _child_environment(changes)
        for round_ in range(args.repeat + 1):  # round 0 fills the page cache (and writes bytecode) and is dropped
            for case in chosen:
                before = children_cpu()
                seconds = MEASURE[case.how](case, environment)
                if round_:
                    case.times.append(seconds)
                    case.cpu.append(children_cpu() - before)
        if args.cpu:
            measure_cpu_at_frame([c for c in chosen if c.how != "exit"], environment, args.repeat, Path(scratch))
        case_kind = "no bytecode" if args.no_bytecode else "warm start (bytecode cached)"
        print(
            f"start to the whole first frame (or to exit), {case_kind}, {args.repeat} rounds, load {os.getloadavg()[0]:.2f}"
        )
        report(chosen, by_label)
        if args.cpu:
            report_cpu_at_frame([c for c in chosen if c.how != "exit"])


if __name__ == "__main__":
    main()
