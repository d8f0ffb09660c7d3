"""The compact trace index: it must agree with the validated events, however the file was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tracer.trace.event_shape as event_shape
from executor import ManualClock, ScriptedModel
from tests.helpers.paths import ROSE
from tracer.trace.index import TraceIndex, event_tool, scan_windows
from tracer.trace.reader import TraceFile, TraceFormatError
from tracer.trace.writer import TraceWriter
from tutorials.rose_pricing import SCENARIO


def expected_rows(trace: TraceFile) -> list[tuple]:
    rows = []
    for event in trace:
        data = event.model_dump(mode="json")
        rows.append(
            (
                event.kind,
                event.iteration,
                tuple(event.frames),
                event.source.file,
                event.source.line,
                event.source.function,
                event_tool(data),
            )
        )
    return rows


def index_rows(index: TraceIndex) -> list[tuple]:
    rows = []
    for i in range(len(index)):
        s = index.shape(i)
        rows.append((s.kind, index.iteration(i), s.frames, s.file, s.line, s.function, s.tool))
    return rows


def rewrite(source: Path, target: Path, change) -> Path:
    lines = source.read_text(encoding="utf-8").splitlines()
    out = [lines[0]] + [change(json.loads(line)) for line in lines[1:]]
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    return target


def test_index_of_the_rose_run_matches_the_validated_events():
    with TraceFile(ROSE) as trace:
        index = TraceIndex.build(trace)
        assert index_rows(index) == expected_rows(trace)
        assert [index.kind(i) for i in index.positions("finish_check")] == ["finish_check"] * 3
        assert index.shape(3).tool == "Search" and index.shape(10).tool == "Calculator"
        assert index.shape(16).tool == "Calculator"  # a step names its action's tool


def test_a_trace_in_another_key_order_is_indexed_through_json(tmp_path):
    # Reversed keys defeat the fast scan; the fallback must give the same answer.
    path = rewrite(
        ROSE,
        tmp_path / "reordered.jsonl",
        lambda event: json.dumps(dict(reversed(list(event.items()))), ensure_ascii=False),
    )
    with TraceFile(ROSE) as rose, TraceFile(path) as trace:
        assert index_rows(TraceIndex.build(trace)) == expected_rows(rose)


def test_a_tool_name_with_an_escaped_quote_is_read_exactly(tmp_path):
    def rename(event):
        if event.get("tool") == "Search":
            event["tool"] = 'Se"arch'
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"))

    path = rewrite(ROSE, tmp_path / "quoted.jsonl", rename)
    with TraceFile(path) as trace:
        index = TraceIndex.build(trace)
        assert index.shape(4).tool == 'Se"arch'
        assert index_rows(index) == expected_rows(trace)


def test_a_line_longer_than_the_read_buffer_is_still_found(tmp_path, monkeypatch):
    monkeypatch.setattr(event_shape, "_CHUNK", 256)  # every event line is longer than this
    with TraceFile(ROSE) as trace:
        assert index_rows(TraceIndex.build(trace)) == expected_rows(trace)


def test_a_truncated_trace_indexes_its_valid_prefix(tmp_path):
    data = ROSE.read_bytes()
    path = tmp_path / "cut.jsonl"
    path.write_bytes(data[: data.rindex(b'"kind":"chain_end"') + 30])  # cut inside the last event
    with TraceFile(path) as trace:
        assert trace.warning
        index = TraceIndex.build(trace)
        assert len(index) == len(trace) == 22
        assert index.kind(21) == "finish_check"


def test_a_broken_line_in_the_middle_is_reported_with_its_line_number(tmp_path):
    lines = ROSE.read_text(encoding="utf-8").splitlines()
    lines[5] = '{"seq": 4, "oops"'
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with TraceFile(path) as trace, pytest.raises(TraceFormatError, match=":6: not valid JSON"):
        TraceIndex.build(trace)


def test_a_live_index_grows_one_event_at_a_time_and_equals_the_built_one(tmp_path):
    events = []
    executor = SCENARIO.executor(
        ScriptedModel(SCENARIO.replies), clock=ManualClock(tick=0.001), run_id_factory=lambda: "live"
    )
    with TraceWriter(tmp_path / "live.jsonl") as writer:
        executor.invoke(SCENARIO.inputs(), [writer, events.append])
    live = TraceIndex()
    for event in events:
        live.append(event)
    with TraceFile(tmp_path / "live.jsonl") as trace:
        assert index_rows(live) == index_rows(TraceIndex.build(trace))
    assert len(live) == len(events) == 23


def test_position_queries():
    with TraceFile(ROSE) as trace:
        index = TraceIndex.build(trace)
    assert index.iteration_start(12) == 8
    assert index.last_before("llm_start", 12) == 12
    assert index.last_before("llm_start", 11) == 8
    assert index.last_before("llm_start", 11, lo=9) is None
    assert index.count_before("step", 16) == 2
    assert list(index.column("depth", 0, 4)) == [2, 7, 7, 5]


def test_scan_windows_cover_the_range_once_in_walking_order():
    forward = list(scan_windows(3, 20_000, 1))
    assert forward[0] == (3, 4099) and forward[-1][1] == 20_001
    assert sum(hi - lo for lo, hi in forward) == 19_998
    backward = list(scan_windows(20_000, 3, -1))
    assert backward[0] == (15_905, 20_001) and backward[-1][0] == 3
    assert sum(hi - lo for lo, hi in backward) == 19_998


def test_a_cached_index_is_used_only_while_the_trace_is_unchanged(tmp_path):
    path = tmp_path / "rose.jsonl"
    path.write_bytes(ROSE.read_bytes())
    with TraceFile(path) as trace:
        built = TraceIndex.scan_and_cache(path, len(trace))
        cached = TraceIndex.cached(path, len(trace))
        assert cached is not None and index_rows(cached) == index_rows(built) == expected_rows(trace)
    with open(path, "ab") as more:
        more.write(b"\n")  # any change to the trace makes the cache stale
    assert TraceIndex.cached(path, 23) is None
    assert TraceIndex.cached(tmp_path / "never-indexed.jsonl", 23) is None
