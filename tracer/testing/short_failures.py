"""A loopscope failure in a test (a replay that diverged, a missing cassette) shown without loopscope's own frames."""

from __future__ import annotations

import sys
from typing import Any

from ..replay.cassette import CassetteMissing

# pytest's default and --tb=short: the failure is what the message says; --tb=long (and --full-trace) keep
# every frame, for a look inside loopscope.
SHORT_STYLES = frozenset({"auto", "short"})


def loopscope_failures() -> tuple[type[BaseException], ...]:
    """The failures whose message is the whole story: the first differing event with both values and the
    command that records again, or the command that records a missing cassette."""
    cassette = sys.modules.get("tracer.replay.recorded_answers")  # not imported: no replay ran, none diverged
    return (CassetteMissing, cassette.ReplayDivergence) if cassette is not None else (CassetteMissing,)


def mark_short(excinfo: Any, tbstyle: str) -> None:
    """Mark a loopscope failure as told by its message when the style is a short one: the frames inside
    loopscope hide themselves then (__tracebackhide__ in replay/cassette.py), and pytest shows the test's
    line that ran the cassette with the message under it."""
    if tbstyle in SHORT_STYLES and excinfo.errisinstance(loopscope_failures()):
        excinfo.value.told_by_message = True
