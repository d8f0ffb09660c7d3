"""--by tool and --by model add up the runs' own calls: counts, latencies by nearest rank, tokens and cost."""

from __future__ import annotations

import pytest

from tracer.report.cost.prices import PriceTable
from tracer.runs.aggregates import by_model, by_tool, percentile
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.runs.run_row import RunRow, ToolCall

PRICES = PriceTable.load()


def test_percentiles_are_nearest_rank():
    values = [float(n) for n in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95)) == (50.0, 95.0)
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0 and percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.5) is None


def test_tools_add_up_over_runs():
    def run(path, *calls):
        return RunRow(path=path, name=path, outcome="finished", tools=tuple(ToolCall(**c) for c in calls))

    rows = [
        run("/a", {"tool": "Search", "latency": 1.0, "failed": False, "retries": 0}),
        run(
            "/b",
            {"tool": "Search", "latency": 3.0, "failed": True, "retries": 2},
            {"tool": "Search", "latency": 2.0, "failed": False, "retries": 0},
        ),
        run("/c", {"tool": "Calculator", "latency": None, "failed": False, "retries": 0}),
    ]
    search, calculator = by_tool(rows)
    assert (search.tool, search.calls, search.errors, search.retries, search.runs) == ("Search", 3, 1, 2, 2)
    assert (search.p50, search.p95, search.unfinished) == (2.0, 3.0, 0)
    assert (calculator.calls, calculator.p50, calculator.unfinished) == (1, None, 1)


def test_the_fixtures_by_tool_and_by_model(traces):
    listing = list_runs([traces], Catalogue.in_memory())
    tools = {stats.tool: stats for stats in by_tool(listing.rows)}
    assert (
        tools["SupplierQuote"].calls == 3 and tools["SupplierQuote"].errors == 2 and tools["SupplierQuote"].retries == 3
    )
    parallel = [row for row in listing.rows if str(row.path).endswith("/parallel_tools.jsonl")]
    (weather,) = by_tool(parallel)
    assert weather.p95 == pytest.approx(2.002)  # Shanghai's 2 s (other fixtures call get_weather too)
    models = {stats.model: stats for stats in by_model(listing.rows, PRICES)}
    assert (models["primary"].calls, models["primary"].fallbacks) == (0, 5)
    # fallback_model: 2 retries of primary, 2 fallbacks from it; fallback_rules: 2 retries, 3 fallbacks.
    assert models["primary"].failures == 9
    assert (models["backup"].calls, models["backup"].failures) == (2, 2)  # fallback_rules retried it twice
    scripted = [r for r in listing.rows if "scripted" in r.models]
    assert models["scripted"].tokens == sum(
        u.prompt_tokens + u.completion_tokens for r in scripted for u in r.model_uses if u.model == "scripted"
    )
    assert models["scripted"].cost == pytest.approx(sum(r.cost for r in scripted if r.models == ("scripted",)))
