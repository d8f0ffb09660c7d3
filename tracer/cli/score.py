"""`loopscope score TRACE NAME VALUE [--comment TEXT] [--event SEQ]`: a score appended to a run's trace (or to one of its events), its events untouched."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace

from ..i18n.catalogue import say
from ..trace.annotations import MAX_COMMENT, Score, ScoreError, append_score, checked_name, now_utc, parsed_value
from ..trace.header import header_from
from ..trace.literal_text import scrub
from ..trace.reader import TraceFile
from . import COMMANDS
from .bounded_number import bounded_int
from .language import LANG_HELP, chosen_language
from .usage_error import UsageError

HEADER_BYTES = 1 << 16  # a header line longer than this is not one loopscope wrote


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "score",
        help=COMMANDS["score"],
        description="Attach a score to a run: VALUE is a number (0.3, 1) or a one-line label (correct, wrong). "
        "The score is one line appended after the run's events (docs/traces.md, 'Scores'), so the events, "
        "replays and snapshots are unchanged. Score a run again to change it: the latest score of a name is "
        "the one `runs` shows and filters on (`loopscope runs DIR --where 'score.helpful < 0.5'`); all are kept.",
    )
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("name", metavar="NAME", help="a word: letters, digits, underscores (helpful, answer_correct)")
    p.add_argument("value", metavar="VALUE", help="a number, or a short label")
    p.add_argument("--comment", default="", metavar="TEXT", help="why (kept with the score)")
    p.add_argument(
        "--event",
        type=bounded_int(0, 2**53, "--event (an event's number)"),
        metavar="SEQ",
        help="score one event of the run (a model call's llm_end, a tool's tool_end), not the whole run: "
        "the Detail pane shows it at that event, and `runs --json` lists it under event_scores",
    )
    p.add_argument("--lang", help=LANG_HELP)
    return p


def run(args: argparse.Namespace) -> int:
    lang = chosen_language(args.lang)
    try:
        score = Score(checked_name(args.name), parsed_value(args.value), _checked_comment(args.comment), now_utc())
    except ScoreError as error:
        raise UsageError(say("score.bad", lang, reason=str(error))) from None
    _check_is_loopscope_trace(args.trace, lang)
    kind = _event_kind(args.trace, args.event, lang) if args.event is not None else None
    append_score(args.trace, replace(score, event=args.event))
    with TraceFile(args.trace) as trace:
        count = sum(given.event == args.event for given in trace.scores)  # the run's own, or this event's
    shown = f"{score.value:g}" if isinstance(score.value, float) else score.value
    if kind is None:
        said = say("score.recorded", lang, trace=args.trace, name=score.name, value=shown, count=count)
    else:
        said = say(
            "score.recorded_event",
            lang,
            trace=args.trace,
            event=args.event,
            kind=kind,
            name=score.name,
            value=shown,
            count=count,
        )
    print(scrub(said))
    return 0


def _event_kind(path: str, seq: int, lang: str) -> str:
    """The kind of the trace's event `seq` (a score of an event no one can see would be lost)."""
    with TraceFile(path) as trace:
        if seq < len(trace) and trace[seq].seq == seq:  # as every trace loopscope writes numbers its events
            return trace[seq].kind
        for position in range(len(trace)):
            if trace[position].seq == seq:
                return trace[position].kind
        last = trace[len(trace) - 1].seq if len(trace) else 0
    raise UsageError(say("score.no_event", lang, trace=path, event=seq, last=last))


def _checked_comment(text: str) -> str:
    if len(text) > MAX_COMMENT:
        raise ScoreError(f"the comment is {len(text):,} characters; keep it under {MAX_COMMENT:,}")
    return text


def _check_is_loopscope_trace(path: str, lang: str) -> None:
    """Only a loopscope trace is scored: another tool's export would be converted on reading, and a
    score appended to it would be lost (or break that tool's reader)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(HEADER_BYTES)
            handle.seek(0, os.SEEK_END)
            if handle.tell():
                handle.seek(-1, os.SEEK_END)
                cut = handle.read(1) != b"\n"
    except OSError as error:
        raise UsageError(say("score.not_a_trace", lang, trace=path, reason=error.strerror or str(error))) from None
    try:
        header_from(json.loads(first))
    except (ValueError, UnicodeDecodeError) as error:  # JSONDecodeError is a ValueError
        reason = str(error) if "loopscope" in str(error) else "its first line is not a loopscope trace header"
        raise UsageError(say("score.not_a_trace", lang, trace=path, reason=reason)) from None
    if cut:
        raise UsageError(say("score.cut_mid_line", lang, trace=path))
