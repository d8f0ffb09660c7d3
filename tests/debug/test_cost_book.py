"""The debugger's token figures: the same call at its llm_start and llm_end, totals per iteration and run."""

from __future__ import annotations

from tests.helpers.paths import ROSE
from tracer.debug.session import build_session
from tracer.report.narration.ledger import Ledger
from tracer.trace.reader import TraceFile


def test_a_call_is_found_from_either_end_and_other_events_have_none():
    session = build_session(ROSE)
    kinds = [session.event(p).kind for p in range(len(session))]
    start = kinds.index("llm_start")
    at_start, at_end = session.costs.call_at(start), session.costs.call_at(start + 1)
    assert at_start == at_end and at_start.start_seq == start and at_start.end_seq == start + 1
    assert session.costs.call_at(0) is None


def test_totals_match_the_ledger():
    session = build_session(ROSE)
    with TraceFile(ROSE) as trace:
        ledger = Ledger.of(list(trace))
    iteration, run = session.costs.totals(2)
    assert run.prompt_tokens == sum(c.prompt_tokens for c in ledger.calls)
    assert iteration.calls == 2 and run.calls == 4 and run.estimated
