"""The waterfall's lane names and bar lines come from the catalogue in either language; labels from the trace stay."""

import pytest

from tests.helpers.paths import FIXTURES
from tracer.report.waterfall.picture import Lane
from tracer.report.waterfall.scan import waterfall_of_trace
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile


def read(name: str):
    with TraceFile(FIXTURES / name) as trace:
        return waterfall_of_trace(trace, TraceIndex.build(trace))


@pytest.mark.parametrize("name", ["fallback_model.jsonl", "parallel_tools.jsonl", "tool_error_retried.jsonl"])
def test_a_bars_english_line_is_what_the_word_by_word_line_was(name):
    waterfall = read(name)
    assert len(waterfall)
    for bar in range(len(waterfall)):
        assert waterfall.description(bar) == waterfall.describe(bar)


def test_a_bar_and_a_lane_in_chinese_keep_the_traces_label():
    waterfall = read("tool_error_retried.jsonl")
    lines = [waterfall.description(bar, "zh") for bar in range(len(waterfall))]
    assert any(line.startswith("重试 ") for line in lines)
    assert any(line.startswith("工具 ") and " · 事件 " in line for line in lines)
    assert all("event" not in line and "retry" not in line.split(" · ")[0][:5] for line in lines)
    assert Lane(1, 8, overflow=True).heading("zh") == "工具 8+" and Lane(1, 8, overflow=True).name == "tool 8+"
    assert Lane(0, 1).heading("zh") == "模型" and Lane(2, 2).heading() == "waits 2"
