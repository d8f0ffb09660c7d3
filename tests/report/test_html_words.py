"""The HTML pages say their own words by key: English by default, Chinese when asked; text from a trace as it is."""

from tests.helpers.paths import FIXTURES
from tracer.report.cost.prices import PriceTable
from tracer.report.html.trace_page import trace_page
from tracer.runs.catalogue import Catalogue
from tracer.runs.charts import run_charts
from tracer.runs.charts_html import charts_page
from tracer.runs.listing import list_runs


def test_a_trace_page_in_chinese_heads_its_totals_timeline_and_legend_in_chinese():
    page = trace_page(FIXTURES / "rose_pricing.jsonl", lang="zh")
    assert '<html lang="zh">' in page
    assert "<span>模型调用: <b>" in page and "<h2>时间线</h2>" in page and "红色描边：失败" in page
    assert "model calls" not in page and "Timeline" not in page and "outlined red" not in page
    english = trace_page(FIXTURES / "rose_pricing.jsonl")
    assert '<html lang="en">' in english and "<h2>Timeline</h2>" in english


def test_the_runs_page_in_chinese(tmp_path):
    catalogue = Catalogue.open(tmp_path / "runs.sqlite", True)
    try:
        rows = list_runs([str(FIXTURES / "rose_pricing.jsonl")], catalogue).rows
    finally:
        catalogue.close()
    page = charts_page(run_charts(rows, PriceTable.load()), rows, "t", "zh")
    assert "<p class=muted>1 次运行</p>" in page and "<th>路径</th>" in page and "每次工具调用的延迟" in page
    assert "Latency" not in page and "<th>path</th>" not in page
