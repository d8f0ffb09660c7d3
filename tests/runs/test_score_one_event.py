"""`loopscope score TRACE NAME VALUE --event SEQ` scores one event of a run (the tool call that went wrong):
the score is that event's in the trace, the Detail pane and `runs --json`, never the run's."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.debug.session import build_session
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.trace.reader import TraceFile
from tracer.tui.views.detail_view import detail_text, run_scores_at

SEARCH_END = 5  # the rose run's Search tool_end


@pytest.fixture
def rose(tmp_path):
    return shutil.copy(FIXTURES / "rose_pricing.jsonl", tmp_path / "rose.jsonl")


def test_an_events_score_is_that_events_and_not_the_runs(rose, capsys):
    assert main(["score", str(rose), "right_tool", "0", "--event", str(SEARCH_END), "--comment", "wrong query"]) == 0
    assert main(["score", str(rose), "helpful", "0.8"]) == 0
    said = capsys.readouterr().out
    assert f"event #{SEARCH_END} (tool_end): right_tool = 0 (1 score(s) on this event now)" in said
    assert "helpful = 0.8 (1 score(s) on this run now)" in said  # the event's score is not counted as the run's
    with TraceFile(rose) as trace:
        assert [(s.name, s.value, s.event) for s in trace.scores] == [
            ("right_tool", 0.0, SEARCH_END),
            ("helpful", 0.8, None),
        ]
    row = list_runs([str(rose)], Catalogue.in_memory()).rows[0]
    assert row.scores == {"helpful": 0.8}
    assert [(s.event, s.kind, s.name) for s in row.event_scores] == [(SEARCH_END, "tool_end", "right_tool")]
    session = build_session(rose)
    session.goto(SEARCH_END)
    at_tool = detail_text(session.event(), scores=run_scores_at(session)).plain
    assert "event scores" in at_tool and "right_tool = 0" in at_tool and "wrong query" in at_tool
    session.goto(SEARCH_END - 1)
    assert "right_tool" not in detail_text(session.event(), scores=run_scores_at(session)).plain


def test_an_event_the_run_does_not_have_is_one_line_and_writes_nothing(rose, capsys):
    before = rose.read_bytes()
    assert main(["score", str(rose), "helpful", "1", "--event", "23"]) == 2
    error = capsys.readouterr().err
    assert "has no event #23 (its events are #0 to #22)" in error and error.count("\n") == 1
    assert rose.read_bytes() == before


@pytest.mark.parametrize("event", ["-1", "x", "1e3"])
def test_an_event_number_that_is_not_one_is_refused_by_the_parser(rose, capsys, event):
    before = rose.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        main(["score", str(rose), "helpful", "1", "--event", event])
    assert stopped.value.code == 2 and "argument --event" in capsys.readouterr().err
    assert rose.read_bytes() == before
