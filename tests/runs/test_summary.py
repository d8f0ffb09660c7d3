"""A trace read into its row: how it ended, what it counted, and the same tokens and cost the debugger shows."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.helpers.foreign_traces import write_langsmith
from tests.helpers.paths import FIXTURES, ROOT
from tests.runs.conftest import SHIPPED
from tracer.report.cost.prices import CostTotal, PriceTable, call_costs
from tracer.runs.run_row import priced
from tracer.runs.summary import summarise
from tracer.trace.importers import convert_all, write_conversion
from tracer.trace.reader import load_trace

PRICES = PriceTable.load()


def row_of(path):
    return priced(summarise(str(path), PRICES).row, PRICES)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_tokens_and_cost_are_the_debuggers_for_every_fixture(path):
    _header, events, _warning = load_trace(path)
    total = CostTotal.of(call_costs(events, PRICES))
    row = row_of(path)
    assert (row.prompt_tokens, row.completion_tokens) == (total.prompt_tokens, total.completion_tokens)
    if total.dollars is None:
        assert row.cost is None
    else:
        assert row.cost == pytest.approx(total.dollars, rel=1e-12)
    assert row.cost_estimated == total.estimated


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_counts_are_the_traces_kinds(path):
    kinds = Counter(json.loads(line)["kind"] for line in path.read_text("utf-8").splitlines()[1:])
    row = row_of(path)
    assert row.kinds == dict(kinds)
    assert (row.model_calls, row.tool_calls, row.tool_errors, row.retries, row.fallbacks) == (
        kinds["llm_start"],
        kinds["tool_start"],
        kinds["tool_error"],
        kinds["retry"],
        kinds["fallback"],
    )
    assert row.errors == sum(kinds[k] for k in ("tool_error", "parse_error", "invalid_tool", "retry", "fallback"))
    assert row.events == sum(kinds.values())


@pytest.mark.parametrize(
    ("name", "outcome", "detail"),
    [
        ("rose_pricing", "finished", ""),
        ("tool_error_unhandled", "error", "ToolError: SupplierQuote failed"),
        ("parse_error_off", "error", "OutputParsingError"),
        ("iteration_limit", "iteration_limit", "max_iterations after 15 iteration(s)"),
    ],
)
def test_how_a_run_ended(name, outcome, detail):
    row = row_of(FIXTURES / f"{name}.jsonl")
    assert row.outcome == outcome
    assert row.detail.startswith(detail)


def test_a_run_cut_off_mid_line_is_truncated_and_one_stopped_between_events_interrupted(tmp_path):
    lines = (FIXTURES / "rose_pricing.jsonl").read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:10]) + lines[10][:25])
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_bytes(b"".join(lines[:10]))
    header_only = tmp_path / "header_only.jsonl"
    header_only.write_bytes(lines[0])
    assert (row_of(cut).outcome, row_of(cut).events) == ("truncated", 9)
    assert "cut off" in row_of(cut).detail and str(tmp_path) not in row_of(cut).detail
    assert (row_of(stopped).outcome, row_of(stopped).events) == ("interrupted", 9)
    assert (row_of(header_only).outcome, row_of(header_only).events) == ("interrupted", 0)


def test_a_limit_wins_over_the_chain_end_after_it():
    row = row_of(FIXTURES / "iteration_limit.jsonl")
    assert row.kinds["chain_end"] == 1 and row.outcome == "iteration_limit"


def test_parallel_tool_calls_are_timed_by_their_call_ids():
    row = row_of(FIXTURES / "parallel_tools.jsonl")
    # Beijing 0.010 -> 0.313, Shanghai 0.011 -> 2.013, Guangzhou 0.012 -> tool_error at 0.513.
    latencies = sorted((round(call.latency, 3), call.failed) for call in row.tools)
    assert latencies == [(0.303, False), (0.501, True), (2.002, False)]


def test_a_retried_tool_call_carries_its_retries_and_its_whole_time():
    row = row_of(FIXTURES / "tool_error_retried.jsonl")
    quote = [call for call in row.tools if call.tool == "SupplierQuote"]
    assert len(quote) == 1 and quote[0].retries == 3 and quote[0].latency == pytest.approx(4.422936)


def test_an_unhandled_tool_error_ends_its_call_as_failed():
    row = row_of(FIXTURES / "tool_error_unhandled.jsonl")
    assert [(call.tool, call.failed) for call in row.tools] == [("SupplierQuote", True)]


def test_fallbacks_are_counted_against_the_model_that_failed_and_tokens_for_the_one_that_answered():
    row = row_of(FIXTURES / "fallback_model.jsonl")
    uses = {use.model: use for use in row.model_uses}
    assert row.models == ("primary", "backup")
    assert (uses["primary"].calls, uses["primary"].failures, uses["primary"].fallbacks) == (0, 4, 2)
    assert uses["backup"].calls == 2 and uses["backup"].prompt_tokens > 0
    assert row.cost is None and row.unpriced == ("backup",)


def test_a_price_table_given_later_prices_the_same_row(tmp_path):
    prices_file = tmp_path / "prices.toml"
    prices_file.write_text('[models."backup"]\ninput = 1.0\noutput = 2.0\n', "utf-8")
    row = summarise(str(FIXTURES / "fallback_model.jsonl"), PRICES).row
    use = next(u for u in row.model_uses if u.model == "backup")
    assert priced(row, PriceTable.load(prices_file)).cost == pytest.approx(
        (use.prompt_tokens * 1.0 + use.completion_tokens * 2.0) / 1e6
    )


def test_a_fork_names_its_parent(tmp_path):
    fork = tmp_path / "fork.jsonl"
    lines = (FIXTURES / "rose_pricing.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0]) | {"parent": "rose_pricing.jsonl", "fork_at": 3, "fork": {"reply": "x"}}
    fork.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    assert row_of(fork).parent == "rose_pricing.jsonl"


def test_an_imported_export_says_what_it_was_and_keeps_its_own_path(tmp_path):
    export = write_langsmith(tmp_path / "runs.json")
    row = row_of(export)
    assert row.readable and row.path == str(export)
    assert row.imported and "LangSmith" in row.imported
    assert row.model_calls >= 1 and row.tool_calls >= 1


def test_an_imported_run_is_named_as_its_source_named_it(tmp_path):
    source = ROOT / "tests" / "data" / "langfuse" / "ag2-2026-03-09.json"
    written = write_conversion(convert_all(source).pick(None), source, tmp_path / "anything.jsonl")
    assert row_of(written).name == "conversation user_proxy"  # the trace's name in the Langfuse export


def test_a_hostile_imported_name_is_one_scrubbed_line_and_a_missing_one_is_the_file_name(tmp_path):
    lines = (FIXTURES / "rose_pricing.jsonl").read_text("utf-8").splitlines(keepends=True)
    header = {"format": "loopscope-trace", "schema_version": 1}
    for name, (given, shown) in enumerate(
        [("evil\x1b[31m\nname", "evil␛[31m name"), (42, "1.jsonl"), ("  ", "2.jsonl")]
    ):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({**header, "imported_name": given}) + "\n" + "".join(lines[1:]), "utf-8")
        assert row_of(path).name == shown
