"""Concurrent tool calls are paired by the order they were asked for, never by the order they finished:
two runs that did the same thing are the same run to diff, snapshots and verify, whichever thread won."""

from __future__ import annotations

import json

from tests.helpers.paths import FIXTURES
from tracer.replay.verify import verify_trace
from tracer.report.diff import diff_traces
from tracer.trace.transitions import Trace

PARALLEL = FIXTURES / "parallel_tools.jsonl"


def finished_otherwise(path, order, change=None):
    """parallel_tools.jsonl with its tool results (seq 9-12) written in `order` (by call id), renumbered."""
    header, *lines = PARALLEL.read_text("utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    results = [e for e in events if e["seq"] in (9, 10, 11, 12)]
    assert [e["tool_call_id"] for e in results] == ["call_bj", "call_gz", "call_gz", "call_sh"]  # as recorded
    moved = sorted(results, key=lambda e: (order.index(e["tool_call_id"]), e["seq"]))
    for seq, event in zip((9, 10, 11, 12), moved):
        event["seq"] = seq
        if change:
            change(event)
    events = [e for e in events if e["seq"] < 9 or e["seq"] > 12 or e not in results] + moved
    events.sort(key=lambda e: e["seq"])
    path.write_text("\n".join([header, *(json.dumps(e, ensure_ascii=False) for e in events)]) + "\n", "utf-8")
    return path


def test_calls_that_merely_finished_in_another_order_are_the_same_run(tmp_path):
    other = finished_otherwise(tmp_path / "other.jsonl", ["call_sh", "call_gz", "call_bj"])
    assert [e.tool_call_id for e in Trace.load(other).events if e.kind == "tool_end"] == [
        "call_sh",
        "call_gz",
        "call_bj",
    ]
    diff = diff_traces(PARALLEL, other)
    assert diff.same, diff.differences
    assert Trace.load(other).snapshot_text() == Trace.load(PARALLEL).snapshot_text()
    assert verify_trace(other).status == "ok"


def test_a_call_whose_result_really_differs_still_parts_the_runs_at_that_call(tmp_path):
    def rain(event):
        if event["kind"] == "tool_end" and event["tool_call_id"] == "call_sh":
            event["observation"] = "Shanghai: snow"

    other = finished_otherwise(tmp_path / "other.jsonl", ["call_sh", "call_gz", "call_bj"], rain)
    diff = diff_traces(PARALLEL, other)
    assert not diff.same and diff.rows[diff.parted_at].a.label == "tool(get_weather)"
    assert "  B: 'Shanghai: snow'" in diff.differences
    assert diff.rows[diff.parted_at].b.seq == 9  # B's Shanghai result, paired with A's though B finished it first
