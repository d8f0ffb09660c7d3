"""The HTML page of a scored run shows its scores, every one, the latest of each name marked, comments as text."""

from __future__ import annotations

import shutil

from tests.helpers.paths import FIXTURES
from tracer.cli import main
from tracer.report.html.trace_page import trace_page
from tracer.trace.annotations import Score, append_score


def test_the_page_lists_every_score_and_marks_the_latest(tmp_path):
    trace = tmp_path / "rose.jsonl"
    shutil.copy(FIXTURES / "rose_pricing.jsonl", trace)
    assert main(["score", str(trace), "helpful", "0.2"]) == 0
    assert main(["score", str(trace), "helpful", "0.9", "--comment", "<script>alert(1)</script> fine"]) == 0
    page = trace_page(trace)
    assert "<h2>Scores</h2>" in page
    assert "<td>helpful</td><td>0.2</td>" in page  # kept, not the latest
    assert "<td>helpful ✓</td><td>0.9</td>" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; fine" in page
    assert "<script>alert(1)" not in page


def test_an_unscored_run_has_no_scores_section():
    assert "<h2>Scores</h2>" not in trace_page(FIXTURES / "rose_pricing.jsonl")


def test_a_score_given_on_an_event_names_it_and_leaves_the_runs_mark_alone(tmp_path):
    trace = tmp_path / "rose.jsonl"
    shutil.copy(FIXTURES / "rose_pricing.jsonl", trace)
    assert main(["score", str(trace), "helpful", "0.9"]) == 0
    append_score(trace, Score("helpful", 0.1, source="langsmith", event=4))  # an imported child run's
    page = trace_page(trace)
    assert "<td>helpful ✓</td><td>0.9</td>" in page  # still the run's latest helpful
    assert "<td>helpful ✓ (event #4)</td><td>0.1</td>" in page
