"""The waterfall's lane names and bar lines come from the catalogue in either language; labels from the trace stay."""

from tests.helpers.paths import FIXTURES
from tracer.i18n import templates
from tracer.report.html.trace_page import trace_page
from tracer.report.waterfall.picture import ERROR, FALLBACK, POINTS, Lane
from tracer.report.waterfall.scan import waterfall_of_trace
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile


def read(name: str):
    with TraceFile(FIXTURES / name) as trace:
        return waterfall_of_trace(trace, TraceIndex.build(trace))


def test_a_bars_line_says_what_it_is_when_how_long_and_its_events():
    waterfall = read("parallel_tools.jsonl")
    lines = [waterfall.description(bar) for bar in range(len(waterfall))]
    assert lines[1] == "tool get_weather call_bj · 0.010 → 0.313 s (0.303 s) · events 6–9"
    assert lines[3] == "tool get_weather call_gz · 0.012 → 0.514 s (0.502 s) · events 8–11 · failed"
    assert waterfall.description(3, "zh") == "工具 get_weather call_gz · 0.012 → 0.514 s (0.502 s) · 事件 8–11 · 失败"


def test_a_bar_and_a_lane_in_chinese_keep_the_traces_label():
    waterfall = read("tool_error_retried.jsonl")
    lines = [waterfall.description(bar, "zh") for bar in range(len(waterfall))]
    assert any(line.startswith("重试 ") for line in lines)
    assert any(line.startswith("工具 ") and " · 事件 " in line for line in lines)
    assert all("event" not in line and "retry" not in line.split(" · ")[0][:5] for line in lines)
    assert Lane(1, 8, overflow=True).heading("zh") == "工具 8+" and Lane(1, 8, overflow=True).name == "tool 8+"
    assert Lane(0, 1).heading("zh") == "模型" and Lane(2, 2).heading() == "waits 2"


def test_a_mark_loopscope_made_is_named_in_the_readers_language_and_a_traces_name_is_kept():
    parse = read("parse_error_on.jsonl")
    (mark,) = [bar for bar in range(len(parse)) if parse.kind[bar] == ERROR]
    assert (parse.label_of(mark), parse.label_of(mark, "zh")) == ("parse error", "解析出错")
    assert parse.description(mark, "zh").startswith("解析出错 · ")
    fallback = read("fallback_model.jsonl")
    names = {fallback.label_of(bar, "zh") for bar in range(len(fallback))}
    assert {"熔断器打开", "primary → backup", "llm primary #1", "primary"} <= names  # model names stay
    for kind, mark_kind in POINTS.items():  # every mark but a fallback (its models' names) has its words
        assert mark_kind == FALLBACK or f"waterfall.point.{kind}" in templates()


def test_the_html_waterfall_speaks_the_pages_language():
    page = trace_page(FIXTURES / "fallback_model.jsonl", lang="zh")
    section = page[page.index("<h2>瀑布图</h2>") : page.index("<h2>时间线</h2>")]
    assert ">放大</button>" in section and ">整个运行</button>" in section and "条泳道" in section
    assert 'title="熔断器打开 · 3.014 s · 事件 4 · 失败"' in section and '<span class="name">工具 1</span>' in section
    for english in ("Waterfall", "zoom in", "whole run", "breaker open", "bars in", "event 4", "tool 1"):
        assert english not in section
    english_page = trace_page(FIXTURES / "fallback_model.jsonl")
    assert "<h2>Waterfall</h2>" in english_page and 'title="breaker open · 3.014 s · event 4 · failed"' in english_page
