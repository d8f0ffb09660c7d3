"""Which trace of another tool's file `debug` and `diff` open: `--trace-id`, or, in a terminal, the user's pick."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..trace.literal_text import scrub
from .language import command_words, usage_error
from .usage_error import UsageError

LISTED = 30  # traces offered one by one; past this the user is asked for an id


def add_trace_id_argument(p: argparse.ArgumentParser, twice: bool = False) -> None:
    p.add_argument(
        "--trace-id",
        dest="trace_ids",
        action="append",
        default=[],
        metavar="ID",
        help="which trace of another tool's file holding several (its id, or the start of it)"
        + ("; give it twice to pick one for A and one for B" if twice else ""),
    )


def _is_foreign(path: Path) -> bool:
    if not path.is_file():
        return False  # the trace reader says what is wrong with it
    with path.open("rb") as handle:
        first = handle.readline(1 << 16).removeprefix(b"\xef\xbb\xbf").strip()  # less a UTF-8 BOM
        if first[:1] not in (b"{", b"[") or b'"loopscope-trace"' in first:
            return False  # looks_foreign's own first test: a loopscope trace opens without the importers
        handle.seek(0)
        # Late, as every importer here: they load the trace writer (orjson) and the converters, which
        # a loopscope trace's first frame does not need (bench/bench_startup.py).
        from ..trace.importers import looks_foreign

        return looks_foreign(handle)


def chosen_trace(path: str, trace_id: str | None, ask: bool) -> str:
    """The file to open: `path` itself (a loopscope trace, or another tool's file holding one trace),
    or the converted trace of `path` that `trace_id` names; without one, in a terminal, the user
    picks from the list, and elsewhere a one-line error lists the ids."""
    source = Path(path)
    if not _is_foreign(source):
        if trace_id is not None:
            raise usage_error("cli.trace_id.error.own_trace", None, path=path)
        return path
    from ..trace.importers import ImportProblem, convert_all, opened_as_loopscope  # late: see _is_foreign

    try:
        imported = convert_all(source)
        if trace_id is None and len(imported) == 1:
            return path  # the reader converts it, and says what it recognised
        if trace_id is None and ask:
            trace_id = _asked(source, imported)
        converted, _conversion = opened_as_loopscope(source, trace_id, imported)
    except ImportProblem as problem:
        raise UsageError(str(problem)) from None
    return str(converted)


def _asked(source: Path, imported) -> str:
    """The id of the trace the user picks from a numbered list (by number or by id)."""
    ids = imported.ids()
    print(scrub(command_words("cli.trace_id.holds", None, file=source.name, count=len(imported))), file=sys.stderr)
    for number, trace in enumerate(imported.traces[:LISTED], start=1):
        if trace.spans is not None:
            spans = command_words("cli.trace_id.spans", None, count=len(trace.spans))
        else:
            spans = command_words("cli.trace_id.converted")
        print(scrub(f"  {number:>3}  {trace.info.trace_id or '?'}  {trace.name or ''}  ({spans})"), file=sys.stderr)
    if len(imported) > LISTED:
        print(command_words("cli.trace_id.more", None, count=len(imported) - LISTED), file=sys.stderr)
    try:
        answer = input(command_words("cli.trace_id.which", None, last=min(len(imported), LISTED))).strip()
    except EOFError:
        answer = ""
    if answer.isdigit() and 1 <= int(answer) <= min(len(imported), LISTED):
        chosen = ids[int(answer) - 1]
        if chosen is not None:
            return chosen
    if not answer:
        raise usage_error("cli.trace_id.error.none_picked", None, path=source)
    return answer


def ids_for(files: list[str], trace_ids: list[str]) -> list[str | None]:
    """Each file's --trace-id: one given applies to each file, two give A's and B's."""
    if len(trace_ids) > len(files):
        raise usage_error("cli.trace_id.error.too_many", None, given=len(trace_ids), most=len(files))
    if len(trace_ids) == len(files):
        return list(trace_ids)
    if len(trace_ids) == 1:
        return [trace_ids[0] if _is_foreign(Path(f)) else None for f in files]
    return [None] * len(files)
