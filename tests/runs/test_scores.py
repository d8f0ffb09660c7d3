"""Scores appended by `loopscope score` become the run's: shown, filtered, sorted and averaged by `runs`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.report.cost.prices import PriceTable
from tracer.runs.aggregates import by_model
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.runs.run_fields import sort_key
from tracer.runs.where import RunCondition
from tracer.trace.reader import TraceFile


@pytest.fixture
def scored(tmp_path) -> Path:
    """Three copies of the rose run: one scored 0.2 then 0.9 (the latest wins), one 0.3, one unscored."""
    folder = tmp_path / "runs"
    folder.mkdir()
    for name in ("a", "b", "c"):
        shutil.copy(FIXTURES / "rose_pricing.jsonl", folder / f"{name}.jsonl")
    assert main(["score", str(folder / "a.jsonl"), "helpful", "0.2"]) == 0
    assert main(["score", str(folder / "a.jsonl"), "helpful", "0.9", "--comment", "on second look"]) == 0
    assert main(["score", str(folder / "b.jsonl"), "helpful", "0.3"]) == 0
    assert main(["score", str(folder / "b.jsonl"), "verdict", "wrong"]) == 0
    return folder


def rows_of(folder: Path):
    return list_runs([str(folder)], Catalogue.in_memory()).rows


def test_a_score_leaves_the_events_alone_and_the_reader_offers_every_score(scored):
    original = FIXTURES / "rose_pricing.jsonl"
    with TraceFile(original) as before, TraceFile(scored / "a.jsonl") as after:
        assert len(after) == len(before)
        assert [e.model_dump() for e in after] == [e.model_dump() for e in before]
        assert after.warning is None
        assert [(s.name, s.value, s.comment) for s in after.scores] == [
            ("helpful", 0.2, ""),
            ("helpful", 0.9, "on second look"),
        ]
        assert after.scores[0].at.endswith("Z")


def test_runs_filters_on_the_latest_score_of_a_name(scored):
    rows = rows_of(scored)
    kept = RunCondition("score.helpful < 0.5").select(rows, lambda _rows: {})
    assert [Path(row.path).name for row in kept] == ["b.jsonl"]  # a's 0.2 was replaced by 0.9
    labelled = RunCondition('score.verdict == "wrong"').select(rows, lambda _rows: {})
    assert [Path(row.path).name for row in labelled] == ["b.jsonl"]


def test_a_score_condition_with_an_event_field_is_answered_per_run(scored):
    rows = rows_of(scored)
    condition = RunCondition('score.helpful > 0.5 and tool == "Calculator"')
    assert [Path(row.path).name for row in condition.select(rows, lambda _rows: {})] == ["a.jsonl"]


def test_runs_sorts_by_a_score_with_unscored_runs_last(scored):
    rows = rows_of(scored)
    ascending = [Path(r.path).name for r in sorted(rows, key=sort_key("score.helpful"))]
    descending = [Path(r.path).name for r in sorted(rows, key=sort_key("score.helpful", True))]
    assert ascending == ["b.jsonl", "a.jsonl", "c.jsonl"]
    assert descending == ["a.jsonl", "b.jsonl", "c.jsonl"]


def test_by_model_averages_numeric_scores_over_scored_runs(scored):
    (stats,) = by_model(rows_of(scored), PriceTable.load(None))
    assert stats.scores == {"helpful": pytest.approx(0.6)}  # (0.9 + 0.3) / 2; c has none; labels have no mean


def test_runs_json_carries_each_runs_latest_scores(scored, capsys):
    assert main(["runs", str(scored), "--json"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {Path(row["path"]).name: row["scores"] for row in printed} == {
        "a.jsonl": {"helpful": 0.9},
        "b.jsonl": {"helpful": 0.3, "verdict": "wrong"},
        "c.jsonl": {},
    }


def test_the_catalogue_rereads_rows_written_before_scores(scored, tmp_path):
    from tracer.runs import catalogue

    assert int(catalogue.FORMAT.rsplit("/", 1)[1]) >= 5  # the format that first held scores, or a later one
    path = tmp_path / "cat.sqlite"
    first = Catalogue.open(path)
    list_runs([str(scored)], first)
    first.close()
    assert main(["score", str(scored / "c.jsonl"), "helpful", "0.1"]) == 0  # the file changes: its row is read again
    again = Catalogue.open(path)
    rows = list_runs([str(scored)], again).rows
    again.close()
    assert {Path(r.path).name: r.scores.get("helpful") for r in rows}["c.jsonl"] == 0.1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["helpful", "nan"], "not a finite number"),
        (["helpful", "inf"], "not a finite number"),
        (["very helpful", "1"], "is not a word"),
        (["helpful\x1b[31m", "1"], "is not a word"),
        (["verdict", "bad\nlabel"], "control characters"),
    ],
)
def test_bad_scores_get_one_line_and_change_nothing(scored, capsys, args, said):
    target = scored / "c.jsonl"
    before = target.read_bytes()
    assert main(["score", str(target), *args]) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1
    assert "\x1b" not in error
    assert target.read_bytes() == before


def test_a_file_that_is_not_a_loopscope_trace_is_not_scored(tmp_path, capsys):
    export = tmp_path / "otlp.json"
    export.write_text('{"resourceSpans": []}\n')
    assert main(["score", str(export), "helpful", "1"]) == 2
    assert "is not a loopscope trace" in capsys.readouterr().err
    assert export.read_text() == '{"resourceSpans": []}\n'


def test_a_run_cut_mid_line_is_not_scored(tmp_path, capsys):
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes((FIXTURES / "rose_pricing.jsonl").read_bytes()[:-40])
    assert main(["score", str(cut), "helpful", "1"]) == 2
    assert "cut off" in capsys.readouterr().err
