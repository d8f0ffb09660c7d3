"""The lanes of concurrent tool calls in the timeline: each call a column, overlap visible."""

from tests.helpers.paths import FIXTURES
from tracer.trace.reader import load_trace
from tracer.tui.views.lanes import LaneMap


def lane_cells():
    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    lanes = LaneMap(events.__getitem__, len(events))
    return events, [lanes.cell(i).plain for i in range(len(events))]


def test_three_calls_are_three_columns_that_overlap_until_each_ends():
    events, cells = lane_cells()
    by_kind = {(e.kind, e.tool_call_id): cells[e.seq] for e in events if e.kind in ("tool_start", "tool_end")}
    assert by_kind[("tool_start", "call_bj")].startswith("● ")
    # when Shanghai starts, Beijing's lane is still open and Guangzhou's has not begun
    assert by_kind[("tool_start", "call_sh")].startswith("│ ● ")
    # Shanghai ends last: by then the other two lanes are closed
    assert by_kind[("tool_end", "call_sh")] == "  ●   "


def test_each_lane_row_names_its_call_and_a_narrow_pane_gets_one_column_a_lane():
    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    lanes = LaneMap(events.__getitem__, len(events))
    start = next(e for e in events if e.kind == "tool_start" and e.tool_call_id == "call_sh")
    assert lanes.label(start.seq, start).plain == "call_sh " and lanes.cell(start.seq, narrow=True).plain == "│●  "
    assert lanes.label(start.seq, start, narrow=True).plain == "…sh "  # bj, sh, gz: two letters tell them apart


def test_the_failing_call_is_marked_in_its_lane_as_a_plain_row_marks_an_error():
    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    lanes = LaneMap(events.__getitem__, len(events))
    failed = next(e for e in events if e.kind == "tool_error")
    cell = lanes.cell(failed.seq)
    mark = cell.plain.index("✗")
    assert any(span.start <= mark < span.end and "red" in str(span.style) for span in cell.spans)
    assert "✗" not in "".join(lanes.cell(e.seq).plain for e in events if e.kind == "tool_end")


def test_events_outside_the_acting_phase_have_no_lane_cell():
    events, cells = lane_cells()
    assert all(cells[e.seq] == "" for e in events if e.kind in ("llm_start", "agent_action", "step", "chain_end"))


def test_a_long_provider_id_is_shown_by_its_end():
    from tracer.tui.views.lanes import _short

    assert _short("call_bj") == "call_bj" and _short("call_9f8a7b6c5d4e3f2a1b0c") == "…f2a1b0c"
