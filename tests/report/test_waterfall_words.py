"""The waterfall's lane names and bar lines come from the catalogue in either language; labels from the trace stay."""

from tests.helpers.paths import FIXTURES
from tracer.report.waterfall.picture import Lane
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
