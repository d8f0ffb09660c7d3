"""`loopscope runs --export-otlp URL`: the selected runs' spans to a collector, a batch of runs per request."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from executor.models.credentials import hide_credentials

from ..i18n import say
from ..report.otlp.export import spans_of
from ..report.otlp.wire import OTLPExportError, post_spans
from ..trace.format_error import TraceFormatError
from ..trace.literal_text import scrub
from ..trace.transitions import Trace

# Spans per request: a collector's default limit on a request's size is a few MB (4 MiB for the
# OpenTelemetry Collector's gRPC receiver), and a run's spans carry its prompts.
BATCH_SPANS = 500


def export_runs(paths: Sequence[Path], url: str, skipped: int = 0, lang: str = "en") -> int:
    """Send each run's spans (secrets redacted, as `loopscope export --otlp` does); stop at the first
    refusal, saying how many runs went. Exit 0 when all went, 1 otherwise."""
    batch: list = []
    sent_runs = sent_spans = batch_runs = 0
    for path in paths:
        try:
            spans = spans_of(Trace.load(path))
        except (TraceFormatError, OSError) as error:  # changed since it was listed
            print(scrub(say("runs.export.skipped", lang, path=path, problem=error)), file=sys.stderr)
            skipped += 1
            continue
        batch += spans
        batch_runs += 1
        if len(batch) >= BATCH_SPANS:
            if not _post(url, batch, sent_runs, lang):
                return 1
            sent_runs, sent_spans, batch, batch_runs = sent_runs + batch_runs, sent_spans + len(batch), [], 0
    if batch and not _post(url, batch, sent_runs, lang):
        return 1
    sent_runs, sent_spans = sent_runs + batch_runs, sent_spans + len(batch)
    unread = say("runs.export.unread", lang, count=skipped) if skipped else ""
    sent = say("runs.export.sent", lang, spans=f"{sent_spans:,}", runs=f"{sent_runs:,}", url=hide_credentials(url))
    print(scrub(sent + unread))
    return 0


def _post(url: str, spans: list, sent_runs: int, lang: str) -> bool:
    try:
        post_spans(url, spans)
    except OTLPExportError as error:  # it quotes the URL (its user:password@ too) and the collector's reply
        said = hide_credentials(str(error))
        print(scrub(say("runs.export.refused", lang, problem=said, runs=f"{sent_runs:,}")), file=sys.stderr)
        return False
    return True
