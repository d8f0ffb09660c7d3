"""`loopscope score TRACE NAME VALUE [--comment TEXT]`: a score appended to a run's trace, its events untouched."""

from __future__ import annotations

import argparse
import json
import os

from ..i18n.catalogue import say
from ..trace.annotations import MAX_COMMENT, Score, ScoreError, append_score, checked_name, now_utc, parsed_value
from ..trace.header import header_from
from ..trace.literal_text import scrub
from ..trace.reader import TraceFile
from . import COMMANDS
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
    p.add_argument("--lang", help=LANG_HELP)
    return p


def run(args: argparse.Namespace) -> int:
    lang = chosen_language(args.lang)
    try:
        score = Score(checked_name(args.name), parsed_value(args.value), _checked_comment(args.comment), now_utc())
    except ScoreError as error:
        raise UsageError(say("score.bad", lang, reason=str(error))) from None
    _check_is_loopscope_trace(args.trace, lang)
    append_score(args.trace, score)
    with TraceFile(args.trace) as trace:
        count = sum(score.event is None for score in trace.scores)  # the run's own, not its events'
    shown = f"{score.value:g}" if isinstance(score.value, float) else score.value
    print(scrub(say("score.recorded", lang, trace=args.trace, name=score.name, value=shown, count=count)))
    return 0


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
