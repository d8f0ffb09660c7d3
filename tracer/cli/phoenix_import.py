"""`import --phoenix`'s options as one value: the server, the project, the trace, the start time and the API key."""

from __future__ import annotations

import argparse
import os
import re
from datetime import UTC, datetime, timedelta

from ..trace.importers.phoenix_client import PhoenixError, PhoenixSource, checked_url
from ..trace.literal_text import scrub
from .usage_error import UsageError

ENV_API_KEY = "PHOENIX_API_KEY"  # the variable Phoenix's own client reads
_AGE = re.compile(r"(\d+)([mhd])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def since_time(text: str, now: datetime | None = None) -> datetime:
    """--since: an age (30m, 2h, 7d) before now, or a date or time (UTC unless it names its zone)."""
    now = now or datetime.now(UTC)
    age = _AGE.fullmatch(text.strip())
    if age:
        return now - timedelta(**{_UNITS[age.group(2)]: int(age.group(1))})
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"--since {scrub(text)[:80]!r}: give a UTC date or time (2026-12-01, 2026-12-01T18:00) or an age (30m, 2h, 7d)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def phoenix_source(args: argparse.Namespace, environ: dict[str, str] | None = None) -> PhoenixSource:
    environ = dict(os.environ) if environ is None else environ
    try:
        url = checked_url(args.phoenix)
    except PhoenixError as error:
        raise UsageError(str(error)) from None
    project = args.project.strip()
    if not project or "/" in project or "?" in project or "#" in project:
        raise UsageError(f"--project {scrub(args.project)[:80]!r}: a Phoenix project name has no / ? or #")
    return PhoenixSource(
        url=url,
        project=project,
        trace_id=(args.trace_id or "").strip() or None,
        since=since_time(args.since) if args.since else None,
        api_key=environ.get(ENV_API_KEY) or None,
    )
