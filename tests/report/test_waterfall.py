"""The waterfall's bars: calls paired with their ends, parallel calls in lanes of their own, waits and failures where they happened."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.foreign_traces import write_otlp
from tests.helpers.paths import FIXTURES
from tracer.report.waterfall.builder import WaterfallBuilder
from tracer.report.waterfall.cells import Window, fit, following, lane_cells, zoomed
from tracer.report.waterfall.picture import BAR_KINDS, MAX_LANES, Waterfall
from tracer.report.waterfall.scan import waterfall_of_events, waterfall_of_trace
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile

EVERY_FIXTURE = sorted(FIXTURES.glob("*.jsonl")) + sorted((FIXTURES / "langchain").glob("*.jsonl"))


def read(path: Path) -> Waterfall:
    with TraceFile(path) as trace:
        return waterfall_of_trace(trace, TraceIndex.build(trace))


def bars(waterfall: Waterfall) -> list[tuple[str, str, str, float, float, int, int, bool]]:
    """(lane, kind, label, start, end, first, last, failed) per bar."""
    return [
        (
            waterfall.lanes[int(waterfall.lane[i])].name,
            BAR_KINDS[int(waterfall.kind[i])],
            waterfall.label_of(i),
            round(float(waterfall.start[i]), 3),
            round(float(waterfall.end[i]), 3),
            int(waterfall.first[i]),
            int(waterfall.last[i]),
            bool(waterfall.error_at[i] == waterfall.error_at[i]),
        )
        for i in range(len(waterfall))
    ]


def test_parallel_tool_calls_each_get_a_lane_and_end_with_their_own_events():
    waterfall = read(FIXTURES / "parallel_tools.jsonl")
    assert bars(waterfall) == [
        ("model", "model", "scripted", 0.003, 0.006, 1, 2, False),
        ("tool 1", "tool", "get_weather call_bj", 0.01, 0.313, 6, 9, False),
        ("tool 2", "tool", "get_weather call_sh", 0.011, 2.013, 7, 12, False),
        # its tool_error (event 10) is marked on it; its tool_end (event 11) ends it
        ("tool 3", "tool", "get_weather call_gz", 0.012, 0.514, 8, 11, True),
        ("model", "model", "scripted", 2.019, 2.022, 17, 18, False),
    ]
    assert [waterfall.lanes[lane].name for lane in waterfall.order] == ["model", "tool 1", "tool 2", "tool 3"]


def test_retry_waits_start_at_the_retry_and_rate_limit_waits_end_at_theirs():
    waterfall = read(FIXTURES / "rate_limit.jsonl")
    waits = [bar for bar in bars(waterfall) if bar[0] == "waits"]
    assert waits[:4] == [
        ("waits", "retry", "llm scripted #1", 0.017, 0.814, 9, 9, True),  # the attempt failed at its start
        ("waits", "rate_limit", "", 0.816, 2.006, 10, 10, False),
        ("waits", "retry", "llm scripted #2", 2.007, 3.13, 11, 11, True),
        ("waits", "rate_limit", "", 3.132, 4.006, 12, 12, False),
    ]
    # The model call that waited spans its retries and waits: llm_start 8 to llm_end 13.
    assert ("model", "model", "scripted", 0.014, 4.008, 8, 13, False) in bars(waterfall)


def test_fallbacks_breakers_and_failed_plans_are_marked_where_they_happened():
    found = bars(read(FIXTURES / "fallback_rules.jsonl"))
    assert ("events", "fallback", "primary → backup", 3.015, 3.015, 5, 5, False) in found
    assert ("events", "error", "breaker open", 3.014, 3.014, 4, 4, True) in found
    # plan_error ends the model call the plan waited on, failed (no llm_end ever came)
    assert ("model", "model", "primary", 0.004, 6.025, 1, 9, True) in found
    assert ("model", "model", "primary", 6.026, 6.031, 10, 12, True) in found


def test_the_summarisers_model_call_is_the_summary_bar():
    found = bars(read(FIXTURES / "context_budget_summarize.jsonl"))
    assert [bar for bar in found if bar[1] == "summary"] == [
        ("model", "summary", "scripted", 0.033, 0.036, 22, 24, False)
    ]
    assert ("events", "trim", "context trimmed", 0.033, 0.033, 22, 22, False) in bars(
        read(FIXTURES / "context_budget_trim.jsonl")
    )


def test_an_unhandled_tool_error_ends_its_call_failed_and_the_chain_error_is_marked():
    assert bars(read(FIXTURES / "tool_error_unhandled.jsonl"))[1:] == [
        ("tool 1", "tool", "SupplierQuote", 0.008, 0.009, 4, 5, True),
        ("events", "error", "chain error", 0.01, 0.01, 6, 6, True),
    ]


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: p.stem)
def test_reading_only_a_few_bytes_per_line_gives_what_decoding_every_event_gives(path):
    fast = read(path)
    with TraceFile(path) as trace:
        decoded = waterfall_of_events(list(trace))
    assert bars(fast) == bars(decoded)
    assert len(fast) > 0


def test_lines_in_another_writers_layout_are_decoded_whole(tmp_path):
    """Keys in another order (or escapes in the call id) are not what the fast reading expects."""
    header, *lines = (FIXTURES / "parallel_tools.jsonl").read_text(encoding="utf-8").splitlines()
    shuffled = tmp_path / "shuffled.jsonl"
    reordered = [json.dumps(dict(reversed(list(json.loads(line).items()))), ensure_ascii=False) for line in lines]
    shuffled.write_text("\n".join([header, *reordered]) + "\n", encoding="utf-8")
    assert bars(read(shuffled)) == bars(read(FIXTURES / "parallel_tools.jsonl"))


def test_an_imported_runs_parallel_tools_without_call_ids_end_by_name(tmp_path):
    """OTLP spans become events with no call id; Divide fails (handled) and never ends; the others
    end in another order than they began."""
    found = {bar[2]: bar for bar in bars(read(write_otlp(tmp_path / "spans.json", orphan=False)))}
    assert found["Search"][3:5] == (0.041, 0.09)
    assert found["Calculator"][3:5] == (0.042, 0.06)
    assert found["Divide"][3:5] == (0.043, 0.05) and found["Divide"][7] is True
    assert len({bar[0] for bar in found.values() if bar[1] == "tool"}) == 3


def test_a_live_run_grows_event_by_event_to_the_same_bars():
    with TraceFile(FIXTURES / "parallel_tools.jsonl") as trace:
        events = list(trace)
    builder = WaterfallBuilder()
    from tracer.report.waterfall.scan import feed_event  # the live pane's way in

    midway = None
    for position, event in enumerate(events):
        feed_event(builder, position, event)
        if position == 8:
            midway = builder.waterfall()
    assert midway is not None
    assert midway.running.tolist() == [False, True, True, True]  # three tools still running at event 8
    assert bars(builder.waterfall()) == bars(waterfall_of_events(events))


def synthetic(calls: list[tuple[float, float, str | None]]) -> Waterfall:
    """tool_start/tool_end pairs at the given times, all started before any ends (like a parallel batch)."""
    builder = WaterfallBuilder()
    position = 0
    for start, _end, call in calls:
        builder.add(position, "tool_start", start, call, "t")
        position += 1
    for _start, end, call in calls:
        builder.add(position, "tool_end", end, call, "t")
        position += 1
    return builder.waterfall()


def test_more_overlapping_calls_than_lanes_share_the_last_lane():
    waterfall = synthetic([(0.0, 1.0, f"call_{i}") for i in range(MAX_LANES + 5)])
    assert len(waterfall.lanes) == MAX_LANES
    assert waterfall.lanes[-1].overflow and waterfall.lanes[-1].name == f"tool {MAX_LANES}+"
    assert (waterfall.lane == MAX_LANES - 1).sum() == 6


def test_rounds_copied_with_the_same_times_stay_in_one_lane():
    """Times that go backwards (a trace stitched from copies) overlap, but never pile up lanes."""
    builder = WaterfallBuilder()
    for round_ in range(1000):
        base = round_ * 4
        builder.add(base, "llm_start", 0.001, None, "m")
        builder.add(base + 1, "llm_end", 0.002, None)
        builder.add(base + 2, "tool_start", 0.003, None, "Search")
        builder.add(base + 3, "tool_end", 0.004, None, "Search")
    waterfall = builder.waterfall()
    assert [lane.name for lane in waterfall.lanes] == ["model", "tool 1"]


def test_cells_add_up_bars_too_small_to_draw_apart():
    builder = WaterfallBuilder()
    for i in range(1000):  # 1,000 calls of 1/8 s, every 1/4 s (times exact in binary); the 500th fails
        builder.add(2 * i, "tool_start", i * 0.25, None, "Search")
        if i == 500:
            builder.add(2 * i, "tool_error", i * 0.25 + 0.0625, None, {"tool": "Search", "handled": True})
        builder.add(2 * i + 1, "tool_end", i * 0.25 + 0.125, None, "Search")
    waterfall = builder.waterfall()
    cells = lane_cells(waterfall, 0, Window(0.0, 250.0, 10))
    assert cells.starts.tolist() == [100] * 10  # a hundred calls begin in each cell
    assert cells.failed.tolist() == [False] * 5 + [True] + [False] * 4
    zoomed_in = lane_cells(waterfall, 0, Window(0.0, 1.25, 10))  # 1/8 s a cell: each call its own cell
    assert zoomed_in.bars.tolist() == [1, 0] * 5
    assert zoomed_in.bar.tolist() == [0, -1, 1, -1, 2, -1, 3, -1, 4, -1]


def test_windows_zoom_around_a_time_and_follow_it_inside_the_run():
    waterfall = synthetic([(0.0, 10.0, None)])
    whole = fit(waterfall, 100)
    assert whole.t0 == 0.0 and whole.t1 == pytest.approx(10.0)
    closer = zoomed(whole, 4, around=9.9, whole=whole)
    assert (closer.t0, closer.t1) == pytest.approx((7.5, 10.0))  # kept inside the run, not centred past its end
    assert following(Window(0.0, 2.5, 100), 6.0, whole) == Window(4.75, 7.25, 100)
    assert zoomed(closer, 0.01, around=5.0, whole=whole) == whole


def test_the_bar_of_an_event_is_the_innermost_that_holds_it():
    waterfall = read(FIXTURES / "rose_pricing.jsonl")
    # The calculator's own model call (nested in the Calculator tool call) holds its events.
    labels = {position: waterfall.bar_at(position) for position in range(len(waterfall.first))}
    calculator = next(i for i in range(len(waterfall)) if "Calculator" in waterfall.labels[waterfall.label[i]])
    nested = calculator + 1
    assert waterfall.first[nested] > waterfall.first[calculator] and waterfall.last[nested] < waterfall.last[calculator]
    assert waterfall.bar_at(int(waterfall.first[nested])) == nested
    assert waterfall.bar_at(int(waterfall.last[calculator])) == calculator
    assert waterfall.bar_at(0) is None and labels
    assert np.all(np.diff(waterfall.first) >= 0)


def test_a_lone_surrogate_in_a_failed_tools_message_is_read_not_a_crash(tmp_path):
    """Valid JSON that orjson refuses (a \\udc80 escape, as a tool's bytes read with surrogateescape write)."""
    header, *lines = (FIXTURES / "tool_error_unhandled.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    next(e for e in events if e["kind"] == "tool_error")["message"] = "bad byte \udc80 here"
    path = tmp_path / "surrogate.jsonl"
    path.write_text("\n".join([header, *(json.dumps(e) for e in events)]) + "\n", encoding="utf-8")
    assert b"\\udc80" in path.read_bytes()
    assert bars(read(path)) == bars(read(FIXTURES / "tool_error_unhandled.jsonl"))
