"""The first line of a trace file, typed: what wrote it, and what a replay needs to rebuild the run."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from executor import __version__ as LOOPSCOPE_VERSION
from executor.events import SCHEMA_VERSION
from executor.events.base import describe_fields

TRACE_MARKER: Final = "loopscope-trace"


class TraceHeader(BaseModel):
    """A trace's header line. Unknown keys (from a newer loopscope) are kept, not refused."""

    # Field docstrings become descriptions through describe_fields (below), as for the events:
    # cheaper at start-up than use_attribute_docstrings.
    model_config = ConfigDict(frozen=True, extra="allow", defer_build=True)

    format: Literal["loopscope-trace"] = TRACE_MARKER
    """Marks the file as a loopscope trace."""
    schema_version: int = SCHEMA_VERSION
    """The event vocabulary's version; a reader refuses versions it does not know."""
    loopscope_version: str = LOOPSCOPE_VERSION
    """The loopscope that wrote the file."""
    executor_hashes: dict[str, str] = {}
    """sha256 of each executor source file, in traces written before loopscope stopped recording them
    (the debugger still warns when one of those files changed)."""
    prompt_encoding: str = "base+append"
    """How a growing prompt is stored: an earlier llm_start's prompt plus the text appended to it."""
    recorded_at: str | None = None
    """When the run began: UTC, ISO 8601 to the second ("2026-12-01T18:11:15Z"); for a converted trace,
    its source's first span. Absent in traces written before loopscope recorded it (`runs` then shows
    the file's modification time)."""
    scenario: str | None = None
    """The registered scenario that ran (e.g. "rose-pricing"), which replay rebuilds by name."""
    agent: str | None = None
    """MODULE:FUNCTION or path/to/file.py:FUNCTION of a user's build(model) that ran, for replay."""
    agent_hash: str | None = None
    """sha256 of the file that defined the user's build(model) when the run was recorded."""
    framework: str | None = None
    """The framework that ran the agent (LangGraph, ...), when it was not loopscope's own executor: verify,
    fork and the debugger re-run such a trace through that framework's adapter."""
    clock_tick: float | None = None
    """Seconds a manual clock advanced per reading; absent when the run used real time."""
    live: bool = False
    """True when a live model (or a live debugger session) produced the run."""
    model: str | None = None
    """The live model's PROVIDER:NAME."""
    retry_policy: dict[str, Any] | None = None
    """RetryPolicy.describe() of the run, so a replay retries the same way."""
    rate_limit: dict[str, float] | None = None
    """RateLimiter.describe() of the run."""
    replayed_from: str | None = None
    """The trace a replay re-executed."""
    parent: str | None = None
    """For a fork: the trace it was forked from."""
    parent_run_id: str | None = None
    """For a fork: the parent's run id."""
    fork_at: int | None = None
    """For a fork: the event whose reply or observation was changed."""
    fork: dict[str, str] | None = None
    """For a fork: {"reply": text} or {"observation": text}."""
    live_after_fork: str | None = None
    """For a fork: the model that answered what the recording could not."""
    after_fork: str | None = None
    """For a fork: what answered a later model call whose prompt had changed: "recording" (its recorded
    reply, given to another prompt), "live" (the live model) or "stop" (nothing: the fork ended there)."""

    @property
    def recorded_in_real_time(self) -> bool:
        """A live run against the system clock, rather than a manual clock's."""
        return self.clock_tick is None and self.live

    @property
    def is_fork(self) -> bool:
        return self.parent is not None

    def to_json_dict(self) -> dict[str, Any]:
        """The header as written: fields left at None are left out, and so are executor hashes where there
        are none (only traces from before they were dropped carry them)."""
        written = self.model_dump(mode="json", exclude_none=True)
        if not written.get("executor_hashes"):
            written.pop("executor_hashes", None)
        return written


describe_fields(TraceHeader)


def header_from(value: Any) -> TraceHeader:
    """A TraceHeader from a decoded first line; raises ValueError with a one-line reason."""
    if isinstance(value, TraceHeader):
        return value
    if not isinstance(value, dict) or value.get("format") != TRACE_MARKER:
        raise ValueError(f'not a loopscope trace: the header has no "format": "{TRACE_MARKER}"')
    if value.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(
            f"schema_version {value.get('schema_version')!r} is not supported (this loopscope "
            f"reads {SCHEMA_VERSION}); re-record the trace or use the loopscope version that wrote it"
        )
    try:
        return TraceHeader.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        place = ".".join(str(p) for p in first["loc"]) or "header"
        raise ValueError(f"bad header field {place}: {first['msg']}") from None


def new_header(**meta: Any) -> TraceHeader:
    """The header for a run being written now: this loopscope and `meta`.

    It records no hashes of the executor's files (traces before this did): every edit would have
    changed every header, and what a reader needs to know, whether an event's recorded line still
    holds the code that emitted it, is checked against the lines themselves (verify's moved lines,
    the debugger's source pane)."""
    meta.setdefault("recorded_at", utc_stamp(time.time()))
    return TraceHeader(**meta)


# 2000-01-01 to 2100-01-01: a time outside this is not a calendar date (an importer's "any epoch").
_PLAUSIBLE = (946_684_800.0, 4_102_444_800.0)


def utc_stamp(seconds: float) -> str | None:
    """Unix seconds as recorded_at writes them; None for a time that is no plausible date."""
    if not _PLAUSIBLE[0] <= seconds < _PLAUSIBLE[1]:
        return None
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp_seconds(stamp: str | None) -> float | None:
    """recorded_at back as Unix seconds; None when absent or not a date (a hand-edited header)."""
    if not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = moment.timestamp()
    return seconds if _PLAUSIBLE[0] <= seconds < _PLAUSIBLE[1] else None
