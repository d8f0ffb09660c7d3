"""`--where` over runs: event conditions decided on the catalogue's shapes give what reading every event gives,
run words (cost, outcome …) work in the same language, and a condition that can match nothing says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracer.debug.conditions import Condition, resolve_in
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.runs.where import ConditionError, RunCondition
from tracer.trace.reader import TraceFile


@pytest.fixture
def listing(traces):
    return list_runs([traces], Catalogue.in_memory())


def names(rows) -> set[str]:
    return {row.name for row in rows}


def by_reading_every_event(listing, text: str) -> set[str]:
    """The meaning of an event condition, the slow way: a run is kept when any of its events matches."""
    condition = Condition(text)
    kept = set()
    for row in listing.rows:
        with TraceFile(row.path) as trace:
            if any(condition.matches(resolve_in(trace.fields(i), i)) for i in range(len(trace))):
                kept.add(row.name)
    return kept


EVENT_CONDITIONS = [
    'kind == "tool_error"',
    'tool == "Search" and iteration >= 3',
    'tool == "Calculator"',
    'kind == "retry" or kind == "fallback"',
    'state == "error"',
    'function == "plan" and depth > 5',
    '"_perform_agent_action" in frames and tool == "get_weather"',
    "iteration > 10",
    'not kind == "chain_start"',
    'error_type == "ToolError"',
    "handled == false",
    '"Guangzhou" in observation',
    "usage.prompt_tokens > 0",
    "seq > 100",
]


@pytest.mark.parametrize("text", EVENT_CONDITIONS)
def test_event_conditions_keep_the_runs_reading_every_event_would(listing, text):
    kept = RunCondition(text).select(listing.rows, listing.shapes)
    assert names(kept) == by_reading_every_event(listing, text)


@pytest.mark.parametrize("text", EVENT_CONDITIONS[:8])
def test_a_run_the_catalogue_has_no_shapes_for_is_read_instead(listing, text):
    kept = RunCondition(text).select(listing.rows, lambda rows: dict.fromkeys((r.path for r in rows), None))
    assert names(kept) == by_reading_every_event(listing, text)


def test_the_examples_of_the_issue(listing):
    tool_errors = RunCondition('kind == "tool_error"').select(listing.rows, listing.shapes)
    assert names(tool_errors) == {
        "tool-error-handled",
        "tool-error-unhandled",
        "parallel-tools",
        "langchain-retry-jitter",
        "langchain-retry-steady",
        "langchain-retry-loopscope",
        "four-loops-loopscope",  # the four loops' failed lookup: each framework's tool error
        "four-loops-openai-agents",
        "four-loops-pydantic-ai",
    }
    late_searches = RunCondition('tool == "Search" and iteration >= 3').select(listing.rows, listing.shapes)
    assert names(late_searches) == {"iteration-limit"}  # the others search in rounds 1 and 2 only


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        ("cost > 0.001", lambda row: row.cost is not None and row.cost > 0.001),
        ('outcome == "error"', lambda row: row.outcome == "error"),
        ('outcome in ["error", "iteration_limit"]', lambda row: row.outcome in ("error", "iteration_limit")),
        ("iterations >= 4 and errors == 0", lambda row: row.iterations >= 4 and row.errors == 0),
        ("duration > 1", lambda row: row.duration > 1),
        ('model == "primary"', lambda row: row.model == "primary"),
        ('"backup" in models', lambda row: "backup" in row.models),
        ("cost == None", lambda row: row.cost is None),
        ('"rose" in name', lambda row: "rose" in row.name),
        ('recorded >= "2000-01-01"', lambda row: True),
        ("tokens > 1500 and run.tool_calls > 1", lambda row: row.tokens > 1500 and row.tool_calls > 1),
    ],
)
def test_run_words(listing, text, holds):
    assert RunCondition(text).select(listing.rows, listing.shapes) == [r for r in listing.rows if holds(r)]


def test_run_words_and_event_fields_together(listing):
    kept = RunCondition('errors > 0 and kind == "retry" and tool_calls >= 2').select(listing.rows, listing.shapes)
    assert names(kept) == {"tool-error-retried", "rate-limit"}
    assert names(kept) == {r.name for r in listing.rows if r.errors and r.retries and r.tool_calls >= 2}


def test_a_run_word_wins_over_an_event_field_of_its_name_and_event_dot_reaches_the_event(listing):
    # The run's model is the first asked; an llm_start's own model field is event.model.
    by_run = RunCondition('model == "backup"').select(listing.rows, listing.shapes)
    by_event = RunCondition('event.model == "primary" and kind == "llm_start"').select(listing.rows, listing.shapes)
    assert by_run == [] and names(by_event) == {"fallback-model", "fallback-rules"}
    long_calls = RunCondition("event.duration > 1").select(listing.rows, listing.shapes)
    assert names(long_calls) == by_reading_every_event(listing, "duration > 1")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("cots > 0.01", "no run or event field is called 'cots'"),
        ('cost > "cheap"', "cost is a number"),
        ("outcome == 3", "outcome is text"),
        ('outcome == "failed"', "'failed' is not an outcome"),
        ('outcome in ["error", "crashed"]', "'crashed' is not an outcome"),
        ('kind == "tool_eror"', "no event kind is called 'tool_eror'"),
        ('iteration == "two"', "iteration is a number"),
        ("cost >", "expected"),
        ("__import__('os').system('id')", "unexpected"),
    ],
)
def test_a_condition_that_cannot_mean_anything_says_why(text, said):
    with pytest.raises(ConditionError, match=None) as raised:
        RunCondition(text)
    assert said in str(raised.value)


def test_unreadable_runs_match_run_words_only(tmp_path, traces):
    (traces / "broken.jsonl").write_text("not json\n", "utf-8")
    listing = list_runs([traces], Catalogue.in_memory())
    assert [
        Path(r.path).name for r in RunCondition('outcome == "unreadable"').select(listing.rows, listing.shapes)
    ] == ["broken.jsonl"]
    assert "broken.jsonl" not in {
        Path(r.path).name for r in RunCondition("iteration >= 0").select(listing.rows, listing.shapes)
    }
