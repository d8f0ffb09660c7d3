"""Each speed trick of the engine and the writer against the plain construction, in one process.

Run: uv run --extra bench python bench/bench_speed_tricks.py [--iterations 1000] [--repeat 5] [--only NAME]
     [--import-traces 500]
Every row runs the same scripted ReAct run (bench_executor.py's) with the trick as the code has it
and with the plain construction patched in, the two interleaved, best of --repeat each; the ratio
plain / trick is the figure to compare (the machine is shared). Then the guards, with whatever the
code holds now: tracing adds at most 1.8x to an untraced run, and LangChain classic's AgentExecutor
takes at least 10x as long as the traced engine on the same run.

Tricks (--only NAME):
  builders   events and records assembled like model_construct by code written per kind and exec'd,
             against validation (`cls(**fields)`, pydantic's own)
  encoder    trace lines written by orjson, against pydantic's `model_dump_json` (the same bytes)
  sites      the emit-site cache keyed by id(code) + offset, against one keyed by (code, offset)
  lineage    the scratchpad's numbered prompts (id-keyed), against the writer comparing prompts
A trick that is gone from the code prints "gone" for its row: docs/performance.md keeps the figure
it had and the commit that measured it. --import-traces N also runs the builders and the encoder
on `loopscope import` of an OTLP file of N traces (bench_import.py's), where thousands of events
are built and written in one command a user waits for.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_executor import drain, langchain_run, loopscope_executor, replies

from tracer.trace.writer import TraceWriter

Patch = Callable[[], contextlib.AbstractContextManager[None]]


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield


@contextlib.contextmanager
def _setattr(target: object, name: str, value: object) -> Iterator[None]:
    before = getattr(target, name)
    setattr(target, name, value)
    try:
        yield
    finally:
        setattr(target, name, before)


def plain_builders() -> contextlib.AbstractContextManager[None] | None:
    """Every event and record validated, as `cls(**fields)` does."""
    from executor.events import builder

    if not hasattr(builder, "_builder_for"):
        return None
    import functools

    def validating(cls, names):
        if cls in builder._RECORDS:
            return functools.partial(builder._validated_record, cls)
        return functools.partial(builder._validated, cls)

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        with _setattr(builder, "_builder_for", validating), _cleared(builder._BUILDERS), _sites_cleared():
            yield
        builder._BUILDERS.clear()

    return patched()


def plain_encoder() -> contextlib.AbstractContextManager[None] | None:
    """Every line written by pydantic's serializer (`model_dump_json`'s bytes), no orjson."""
    from tracer.trace import line_encoder, line_maker

    if not hasattr(line_encoder, "orjson"):
        return None

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        with (
            _setattr(line_maker, "encode_line", line_encoder._pydantic_line),
            _setattr(line_maker, "event_fields", lambda event: None),
        ):
            yield

    return patched()


def plain_sites() -> contextlib.AbstractContextManager[None] | None:
    """The emit-site cache keyed by the (code, offset) pair itself: a code object hashes its contents."""
    from executor import run_context

    if not hasattr(run_context, "_SITES") or "id(code)" not in _source(run_context.RunContext.emit):
        return None
    # RunContext.emit rewritten with a (code, f_lasti) key; everything else as the code has it.
    source = _source(run_context.RunContext.emit)
    source = source.replace("id(code) + (frame.f_lasti << 48)", "(code, frame.f_lasti)")
    site_at = _source(run_context._site_at).replace("id(code) + (frame.f_lasti << 48)", "(code, frame.f_lasti)")
    import textwrap

    namespace = dict(vars(run_context))
    exec(textwrap.dedent(source), namespace)  # bench only: our own source, rewritten
    exec(textwrap.dedent(site_at), namespace)

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        keyed: dict = {}
        namespace["_SITES"] = keyed
        with _setattr(run_context.RunContext, "emit", namespace["emit"]):
            yield

    return patched()


def plain_lineage() -> contextlib.AbstractContextManager[None] | None:
    """No numbered prompts: the writer compares each prompt with the one before (its fallback)."""
    from tracer.trace import line_maker

    if not hasattr(line_maker, "prompt_lineage"):
        return None
    return _setattr(line_maker, "prompt_lineage", lambda prompt: None)


def _source(function: Callable) -> str:
    import inspect

    return inspect.getsource(function)


@contextlib.contextmanager
def _cleared(cache: dict) -> Iterator[None]:
    kept = dict(cache)
    cache.clear()
    try:
        yield
    finally:
        cache.clear()
        cache.update(kept)


@contextlib.contextmanager
def _sites_cleared() -> Iterator[None]:
    from executor import run_context

    sites = getattr(run_context, "_SITES", {})
    with _cleared(sites):
        yield


def _event_classes():
    from executor.events import EVENT_CLASSES

    return EVENT_CLASSES


TRICKS: dict[str, tuple[Callable[[], contextlib.AbstractContextManager[None] | None], bool]] = {
    # name: (the plain construction, whether it acts only when the run is traced)
    "builders": (plain_builders, False),
    "encoder": (plain_encoder, True),
    "sites": (plain_sites, False),
    "lineage": (plain_lineage, True),
}


def timed(fn: Callable[[], object]) -> float:
    """CPU seconds of this process: what a busy machine's other work does not stretch (wall time it does)."""
    started = time.process_time()
    fn()
    return time.process_time() - started


def compare(name: str, script: list[str], repeat: int, tmp: Path) -> None:
    make_plain, traced_only = TRICKS[name]
    if make_plain() is None:
        print(f"  {name:<9} gone (the plain construction is what the code holds)")
        return

    def run_traced() -> None:
        with TraceWriter(tmp / f"{name}.jsonl") as writer:
            drain(loopscope_executor(script), [writer])

    def run() -> None:
        drain(loopscope_executor(script))

    body = run_traced if traced_only else run
    best = {"trick": float("inf"), "plain": float("inf")}
    lines: dict[str, bytes] = {}
    for _ in range(repeat):
        best["trick"] = min(best["trick"], timed(body))
        with make_plain() or _nothing():
            best["plain"] = min(best["plain"], timed(body))
    for label in ("trick", "plain"):  # the same trace either way: the trick changes no byte
        with make_plain() if label == "plain" else _nothing():
            run_traced()
        lines[label] = (tmp / f"{name}.jsonl").read_bytes()
    same = "same bytes" if _without_volatile(lines["trick"]) == _without_volatile(lines["plain"]) else "BYTES DIFFER"
    n = len(script)
    print(
        f"  {name:<9} {'traced' if traced_only else 'untraced'} run: trick {best['trick'] * 1e6 / n:6.1f} µs/round,"
        f" plain {best['plain'] * 1e6 / n:6.1f} µs/round, plain/trick {best['plain'] / best['trick']:.2f}x ({same})"
    )


def _without_volatile(trace: bytes) -> list[bytes]:
    """The lines, less the header and each line's run id and time (a run's own)."""
    import json

    out = []
    for line in trace.splitlines()[1:]:
        event = json.loads(line)
        for key in ("run_id", "t", "duration"):
            event.pop(key, None)
        out.append(json.dumps(event, sort_keys=True).encode())
    return out


def compare_import(name: str, repeat: int, tmp: Path, spans_file: Path) -> None:
    """The same trick on `loopscope import` of an OTLP file (bench_import.py's), CPU seconds in this process."""
    make_plain, _ = TRICKS[name]
    if make_plain() is None:
        return
    from tracer.cli import main as loopscope

    def run() -> None:
        out = tmp / f"import-{name}"
        for old in out.glob("*") if out.exists() else ():
            old.unlink()
        with contextlib.redirect_stdout(None), contextlib.redirect_stderr(None):
            assert loopscope(["import", str(spans_file), "-o", str(out)]) == 0

    best = {"trick": float("inf"), "plain": float("inf")}
    for _ in range(repeat):
        best["trick"] = min(best["trick"], timed(run))
        with make_plain() or _nothing():
            best["plain"] = min(best["plain"], timed(run))
    print(
        f"  {name:<9} import: trick {best['trick']:.2f} s CPU, plain {best['plain']:.2f} s,"
        f" plain/trick {best['plain'] / best['trick']:.2f}x"
    )


def guards(script: list[str], repeat: int, tmp: Path) -> None:
    def traced() -> None:
        with TraceWriter(tmp / "guard.jsonl") as writer:
            drain(loopscope_executor(script), [writer])

    best = {"untraced": float("inf"), "traced": float("inf")}
    for _ in range(repeat):
        best["untraced"] = min(best["untraced"], timed(lambda: drain(loopscope_executor(script))))
        best["traced"] = min(best["traced"], timed(traced))
    print(f"  traced / untraced: {best['traced'] / best['untraced']:.2f}x (guard <= 1.8)")
    if langchain_run(script) is None:
        print("  LangChain skipped: run with `uv run --extra bench ...`")
        return
    langchain = min(timed(langchain_run(script)) for _ in range(max(1, repeat // 2)))  # ~50x as long each
    print(
        f"  LangChain / traced: {langchain / best['traced']:.0f}x (guard >= 10); "
        f"traced {best['traced'] * 1e6 / len(script):.1f} µs/round, LangChain {langchain * 1e6 / len(script):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=sorted(TRICKS), action="append")
    parser.add_argument(
        "--import-traces", type=int, default=0, metavar="N", help="also time `loopscope import` of N OTLP traces"
    )
    args = parser.parse_args()
    script = replies(args.iterations)
    drain(loopscope_executor(script))  # warm: every emit site has its builder before the clock starts
    print(f"{args.iterations} rounds, best of {args.repeat}, interleaved, CPU time")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or TRICKS:
            compare(name, script, args.repeat, Path(tmp))
        if args.import_traces:
            from bench_import import write_file

            spans_file = Path(tmp) / "spans.json"
            spans = write_file(spans_file, args.import_traces)
            print(f"loopscope import, {spans:,} spans in {args.import_traces:,} traces, best of {args.repeat}")
            for name in args.only or ("builders", "encoder"):
                compare_import(name, args.repeat, Path(tmp), spans_file)
        guards(script, args.repeat, Path(tmp))


if __name__ == "__main__":
    main()
