"""When a cassette is recorded and when it is only replayed: the modes pytest-recording users know."""

from __future__ import annotations

import enum
import os
from pathlib import Path


class RecordMode(str, enum.Enum):
    """none: replay only, never call a live model (the default, so tests stay offline).
    once: record when the cassette is missing, otherwise replay.
    rewrite: record every time, replacing the cassette."""

    NONE = "none"
    ONCE = "once"
    REWRITE = "rewrite"

    @classmethod
    def parse(cls, value: "str | RecordMode | None") -> "RecordMode":
        if isinstance(value, cls):
            return value
        if not value:
            return cls.NONE
        try:
            return cls(value.lower())
        except ValueError:
            raise ValueError(f"unknown record mode {value!r}; use one of: "
                             f"{', '.join(m.value for m in cls)}") from None


class CassetteMissing(LookupError):
    """Record mode none was asked to replay a cassette that does not exist."""


def should_record(mode: RecordMode, cassette: str | os.PathLike[str]) -> bool:
    """True when this run must call the live model and write the cassette; False to replay it."""
    path = Path(cassette)
    if mode is RecordMode.REWRITE:
        return True
    if path.exists():
        return False
    if mode is RecordMode.ONCE:
        return True
    raise CassetteMissing(f"no cassette at {path}; record it with --loopscope-record=once "
                          "(or `loopscope record SCENARIO -o FILE` for a tutorial scenario)")
