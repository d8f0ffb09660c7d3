"""Charts across runs: what they plot, drawn in the terminal (plotext) and on an offline HTML page, names shown literally."""

from __future__ import annotations

import re
import sys

import pytest

from tests.report.test_html_report import PLANTED, parsed
from tracer.cli import main
from tracer.cli.runs_charts import chart_text
from tracer.cli.usage_error import UsageError
from tracer.report.cost.prices import PriceTable
from tracer.report.html.page import SCRIPT
from tracer.runs.charts import RunCharts, run_charts
from tracer.runs.charts_html import charts_page
from tracer.runs.run_row import ModelUse, RunRow, ToolCall, priced

PRICES = PriceTable.load()


def row(name: str, recorded: float, tools=(), uses=(), outcome="finished") -> RunRow:
    made = RunRow(
        path=f"/runs/{name}.jsonl",
        name=name,
        outcome=outcome,
        recorded=recorded,
        tools=tuple(ToolCall(tool=t, latency=latency, failed=False, retries=0) for t, latency in tools),
        model_uses=tuple(
            ModelUse(
                model=m,
                calls=calls,
                prompt_tokens=100 * calls,
                completion_tokens=10 * calls,
                estimated=False,
                failures=failures,
                fallbacks=0,
            )
            for m, calls, failures in uses
        ),
    )
    return priced(made, PRICES)  # as a listing prices them


ROWS = [
    row("b", 2000.0, [("Search", 0.5), ("Search", 1.5), ("Calculator", 0.01)], [("gpt-4o-mini", 2, 3)]),
    row("a", 1000.0, [("Search", 1.0), ("Search", None)], [("gpt-4o-mini", 1, 0), ("backup", 1, 0)]),
    row("c", 3000.0, [], [], outcome="unreadable"),
]


def test_the_charts_plot_latencies_per_tool_runs_by_time_and_failures_per_model():
    charts = run_charts(ROWS, PRICES)
    assert charts.latencies == [("Search", [0.5, 1.0, 1.5]), ("Calculator", [0.01])]  # unfinished calls left out
    assert [(p.name, p.recorded, p.tokens) for p in charts.runs] == [("a", 1000.0, 220), ("b", 2000.0, 220)]
    assert charts.runs[1].cost == pytest.approx((200 * 0.15 + 20 * 0.6) / 1e6)  # gpt-4o-mini's table price
    assert [(m.model, m.failures, m.calls) for m in charts.failures] == [("gpt-4o-mini", 3, 3), ("backup", 0, 1)]


def test_terminal_charts_draw_each_series_without_colour_when_asked():
    text = chart_text(run_charts(ROWS, PRICES), 80, colour=False)
    assert "\x1b" not in text
    for title in ("latency per tool call", "cost per run", "tokens per run", "failed attempts per model"):
        assert title in text
    assert "Search" in text and "Calculator" in text and "gpt-4o-mini" in text
    assert "█" in text and "#" in text  # a box and a bar were drawn, not only the axes


def test_names_from_traces_reach_the_terminal_as_text():
    hostile = [row("x", 1.0, [("Sea\x1b[2Jrch", 0.2)], [("m\x1b]8;;http://x\x07", 1, 1)])]
    text = chart_text(run_charts(hostile, PRICES), 80, colour=False)
    assert "\x1b" not in text and "\x07" not in text
    assert "Sea␛[2Jrch"[:10] in text


def test_without_plotext_the_charts_say_which_extra_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "plotext", None)  # import plotext now raises ImportError
    with pytest.raises(UsageError, match=r"pip install 'loopscope\[charts\]'"):
        chart_text(RunCharts([], [], []), 80, colour=False)


def test_the_html_page_draws_the_charts_and_shows_hostile_names_as_text():
    hostile = [row(PLANTED[0], 5.0, [(PLANTED[1], 0.3)], [(PLANTED[2], 1, 2)])]
    page = parsed(charts_page(run_charts(ROWS + hostile, PRICES), ROWS + hostile, "runs"))
    tags = [tag for tag, _ in page.elements]
    # 3 readable runs: 3 token dots, and 2 cost dots (the hostile run's model has no price)
    assert tags.count("svg") == 4 and tags.count("circle") == 5
    assert page.scripts == [SCRIPT]
    for tag, attributes in page.elements:
        assert not [name for name in attributes if name.startswith("on")] and "src" not in attributes, tag
    shown = "".join(page.text)
    assert PLANTED[0] in shown and PLANTED[1][:24] in shown and PLANTED[2][:24] in shown


def test_runs_html_and_charts_from_the_command_line(tmp_path, capsys):
    folder = tmp_path / "runs"
    folder.mkdir()
    from tests.helpers.paths import FIXTURES

    for name in ("rose_pricing", "parallel_tools", "fallback_model"):
        (folder / f"{name}.jsonl").write_bytes((FIXTURES / f"{name}.jsonl").read_bytes())
    catalogue = str(tmp_path / "catalogue.sqlite")
    out = tmp_path / "runs.html"
    assert main(["runs", str(folder), "--html", str(out), "--catalogue", catalogue]) == 0
    assert "wrote the charts of 3 run(s)" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8").count("<svg") == 4
    assert main(["runs", str(folder), "--charts", "--catalogue", catalogue]) == 0
    printed = capsys.readouterr().out
    assert "get_weather" in printed and "primary" in printed and not re.search("\x1b", printed)


def test_terminal_charts_write_dates_the_iso_way_never_day_first():
    import datetime

    june_5 = datetime.datetime(2025, 6, 5, 12, 0).timestamp()
    spread = [row("a", june_5, [], [("gpt-4o-mini", 1, 0)]), row("b", june_5 + 3 * 86400, [], [("gpt-4o-mini", 1, 0)])]
    text = chart_text(run_charts(spread, PRICES), 100, colour=False)
    assert "2025-06-05" in text
    assert "05/06/2025" not in text and not re.search(r"\b\d{2}/\d{2}/\d{4}\b", text)
    same_day = [row("a", june_5, [], [("m", 1, 0)]), row("b", june_5 + 3600, [], [("m", 1, 0)])]
    assert re.search(r"2025-06-05 1[23]:\d\d", chart_text(run_charts(same_day, PRICES), 100, colour=False))
