"""The narrator and the ledger tell a fallback, an open breaker, a degradation and a refusal as they happen."""

import io

from rich.console import Console

from executor import ModelReply, RuleSet
from executor.events import BreakerClosedEvent, BreakerHalfOpenEvent, DegradeEvent, RefusalEvent
from tests.helpers.loop_builders import scripted_executor
from tracer.report.narration.ledger import Ledger
from tracer.report.narration.narrator import Narrator
from tracer.trace.literal_text import scrub
from tracer.trace.reader import load_trace
from tutorials import SCENARIOS

HOSTILE = "[bold red]pwned[/] \x1b[31mred\x1b[0m"
ENVELOPE = {
    "seq": 0,
    "run_id": "r",
    "t": 0.0,
    "iteration": 1,
    "frames": [],
    "source": {"file": "executor/models/chat_model.py", "line": 1, "function": "f"},
}


def narrated(events):
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, width=300, color_system=None))
    for event in events:
        narrator(event)
    return buffer.getvalue()


def fixture(name):
    return load_trace(SCENARIOS[name].fixture)[1]


def test_a_fallback_run_narrates_the_breaker_the_fallback_and_who_answered():
    out = narrated(fixture("fallback-model"))
    assert "breaker OPEN for primary (3 failures in 60s; no calls for 30s): ServerError: HTTP 500" in out
    assert "fallback: primary failed for good (CircuitOpenError); asking backup the same prompt" in out
    assert "fallback: primary refused unsent by its open breaker" in out
    assert out.count("(answered by backup)") == 2


def test_a_degraded_run_narrates_each_failed_plan_and_the_rule_that_answered():
    out = narrated(fixture("fallback-rules"))
    assert "plan got no action (3/3 before the rules take over)" in out
    assert "Degraded to rules after 3 failures in a row: rule weather → get_weather('Hangzhou')" in out


def test_the_ledger_counts_fallbacks_refusals_by_breakers_and_the_rule():
    rows = Ledger.of(fixture("fallback-rules")).lines()
    assert "fallbacks                    3" in rows and "refused by an open breaker   2" in rows
    assert "breakers opened              2" in rows and "degraded to rules            rule 'weather'" in rows
    part_one = Ledger.of(fixture("fallback-model")).lines()
    assert any(row.startswith("answered by backup") and " 2 " in row for row in part_one)
    assert not any("fallback" in row for row in Ledger.of(fixture("rose-pricing")).lines())


def test_half_open_closed_no_rule_and_refusal_are_narrated_literally():
    events = [
        BreakerHalfOpenEvent(**ENVELOPE, endpoint="e", model="m", open_for=31.5),
        BreakerClosedEvent(**ENVELOPE, endpoint="e", model="m"),
        DegradeEvent(
            **ENVELOPE, failures=3, last_error="X: y", question="q", rule=None, pattern=None, tool=None, tool_input=None
        ),
        RefusalEvent(**ENVELOPE, text=HOSTILE, detected_by="refusal_field"),
    ]
    out = narrated(events)
    assert "breaker half-open for m after 31.5s: one trial call goes through" in out
    assert "breaker closed for m: the trial call worked" in out and "no rule matches the question" in out
    assert f"Refusal (refusal_field), answered as plain text: {scrub(HOSTILE)}" in out


def test_a_live_refusal_run_is_narrated_as_its_answer():
    executor, _ = scripted_executor([ModelReply("", refusal="I can't help with that.")], rules=RuleSet([]))
    buffer = io.StringIO()
    executor.invoke({"input": "q"}, [Narrator(Console(file=buffer, width=300, color_system=None))])
    assert "Refusal (refusal_field), answered as plain text: I can't help with that." in buffer.getvalue()
