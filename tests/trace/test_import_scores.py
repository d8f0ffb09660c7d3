"""Scores other tools gave a run arrive with its import: Langfuse's `scores`, as loopscope scores after the events."""

from __future__ import annotations

import json

from tests.helpers.paths import ROOT
from tracer.cli import main
from tracer.trace.importers.scores import langfuse_scores, phoenix_scores, score_word
from tracer.trace.reader import TraceFile

BEEAI = ROOT / "tests" / "data" / "langfuse" / "beeai-2025-08-01.json"


def test_a_langfuse_exports_scores_become_the_runs_scores(tmp_path):
    assert main(["import", str(BEEAI), "-o", str(tmp_path / "run.jsonl")]) == 0
    exported = json.loads(BEEAI.read_text())
    trace = exported.get("trace", exported)
    with TraceFile(tmp_path / "run.jsonl") as run:
        got = {(s.name, s.value, s.source) for s in run.scores}
        assert got == {(item["name"], float(item["value"]), "langfuse") for item in trace["scores"]}
        assert all(s.comment for s in run.scores)  # the evaluator's reasoning is kept
        events = len(run)
    assert main(["import", str(BEEAI), "-o", str(tmp_path / "folder")]) == 0
    (written,) = (tmp_path / "folder").glob("*.jsonl")
    with TraceFile(written) as run:
        assert len(run.scores) == len(trace["scores"]) and len(run) == events


def test_categorical_boolean_and_unusable_langfuse_scores():
    scores = langfuse_scores(
        [
            {
                "name": "Answer correctness",
                "dataType": "CATEGORICAL",
                "stringValue": "partly",
                "value": 0,
                "timestamp": "2026-01-02T00:00:00Z",
            },
            {"name": "passed", "dataType": "BOOLEAN", "value": 1, "timestamp": "2026-01-01T00:00:00Z"},
            {"name": "bad", "value": float("nan")},
            {"name": "   ", "value": 1},
        ]
    )
    assert [(s.name, s.value) for s in scores] == [("passed", 1.0), ("answer_correctness", "partly")]


def test_phoenix_annotations_take_the_score_else_the_label():
    scores = phoenix_scores(
        [
            {"name": "QA Correctness", "result": {"label": "correct", "score": 1, "explanation": "ok"}},
            {"name": "tone", "result": {"label": "rude", "score": None}},
            {"name": "empty", "result": None},
        ]
    )
    assert [(s.name, s.value, s.comment) for s in scores] == [("qa_correctness", 1.0, "ok"), ("tone", "rude", "")]
    assert score_word("3rd-party eval") == "s_3rd_party_eval"
