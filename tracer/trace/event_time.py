"""An event's time as a trace may hold it: finite seconds since the run began, within a range any run fits."""

from __future__ import annotations

import math
from typing import Any

# An event's `t` must be finite and within this of 0: NaN, Infinity or 1e308 are no run's time, and
# turned into nanoseconds (OTLP) or an axis (the waterfall) they overflow. This is as far as OTLP's
# unsigned 64-bit nanoseconds reach (the year 2554), and no less: an import whose run has no readable
# start counts its spans' times from 0, so t can be a date, and an OTLP file may end a span in 2554.
MAX_SECONDS = 1.8e10


def usable_time(t: float) -> bool:
    return math.isfinite(t) and -MAX_SECONDS <= t <= MAX_SECONDS


def time_problem(t: Any) -> str | None:
    """Why `t` cannot be an event's time, or None when it can. A missing or non-number t is not
    judged here: the event model reports it."""
    if isinstance(t, bool) or not isinstance(t, (int, float)) or usable_time(t):
        return None
    return f"t is {t!r:.30}: an event's time must be finite seconds since the run began, within {MAX_SECONDS:.0e}"
