"""LangSmith feedback arrives with an import as the run's scores: `feedback_stats` (the Run schema's aggregate
per key) and the feedback items an export joined to its runs, in the shapes the langsmith SDK's own models dump."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

from langsmith import schemas
from langsmith.types.run import FeedbackStats

from tests.helpers.paths import ROOT
from tracer.cli import main
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.trace.importers.langsmith_feedback import feedback_entries, langsmith_scores
from tracer.trace.reader import TraceFile

RUN_TREE = ROOT / "tests" / "data" / "langsmith" / "agent_run_tree.json"
ROOT_RUN = "0f3e9a52-1c2d-4e5f-8a9b-0c1d2e3f4a5b"  # LangSmith's run ids are UUIDs (the shipped tree's are short)


def stats(**fields) -> dict:
    """One key's feedback_stats as the API sends it: every field of the SDK's model, null where unset."""
    return FeedbackStats(**fields).model_dump(mode="json")


def feedback(run_id: str, key: str, when: str, **fields) -> dict:
    """A feedback item as `client.list_feedback()` gives it (langsmith.schemas.Feedback), dumped to JSON."""
    at = datetime.fromisoformat(when).replace(tzinfo=UTC)
    item = schemas.Feedback(
        id=uuid.uuid4(),
        run_id=run_id,
        trace_id=uuid.uuid4(),
        key=key,
        created_at=at,
        modified_at=at,
        feedback_source=schemas.FeedbackSourceBase(type="api"),
        **fields,
    )
    return item.model_dump(mode="json")


def exported(tmp_path, feedback_stats: dict, items: list[dict] | None = None):
    runs = json.loads(RUN_TREE.read_text("utf-8").replace('"r-root"', f'"{ROOT_RUN}"'))
    runs[0]["feedback_stats"] = feedback_stats
    if items is not None:
        runs[0]["feedback"] = items
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(runs), "utf-8")
    return path, ROOT_RUN


def imported_scores(tmp_path, path) -> list[tuple[str, float | str, str]]:
    out = tmp_path / "imported.jsonl"
    assert main(["import", str(path), "-o", str(out)]) == 0
    with TraceFile(out) as trace:
        return [(s.name, s.value, s.source) for s in trace.scores]


def test_the_shipped_run_trees_feedback_stats_is_its_score(tmp_path):
    assert imported_scores(tmp_path, RUN_TREE) == [("correctness", 1.0, "langsmith")]


def test_numeric_stats_give_the_mean_categorical_ones_the_most_given_label(tmp_path):
    path, _ = exported(
        tmp_path,
        {
            "helpfulness": stats(n=3, avg=0.5, min=0.0, max=1.0, stdev=0.5, errors=0, comments=["too long", "ok"]),
            "Tone Check": stats(n=3, values={"polite": 1, "rude": 2}),
            "evaluator_crashed": stats(n=0, errors=2),  # only errors: nothing was scored
        },
    )
    assert imported_scores(tmp_path, path) == [
        ("helpfulness", 0.5, "langsmith"),
        ("tone_check", "rude", "langsmith"),
    ]
    out = tmp_path / "imported.jsonl"
    with TraceFile(out) as trace:
        assert trace.scores[0].comment == "too long; ok"


def test_feedback_items_are_scores_of_their_own_and_the_latest_is_the_runs(tmp_path):
    run_id = ROOT_RUN
    path, _ = exported(
        tmp_path,
        {"helpful": stats(n=2, avg=0.6), "correct": stats(n=1, avg=1.0)},
        [
            feedback(run_id, "helpful", "2025-02-11T09:00:00", score=0.2, comment="quoted last year's price"),
            feedback(run_id, "helpful", "2025-02-10T09:00:00", score=1),
            feedback(run_id, "verdict", "2025-02-10T10:00:00", value="wrong answer"),
            feedback(run_id, "thumbs", "2025-02-10T11:00:00", score=True),
            feedback(run_id, "structured", "2025-02-10T12:00:00", value={"a": 1}),  # not a number or a label
            feedback(str(uuid.uuid4()), "elsewhere", "2025-02-10T13:00:00", score=0.0),  # another run's
        ],
    )
    scores = imported_scores(tmp_path, path)
    # the stat of `helpful` averages the items kept: not a score beside them; `correct` has only its stat
    assert scores == [
        ("correct", 1.0, "langsmith"),
        ("helpful", 1.0, "langsmith"),
        ("verdict", "wrong answer", "langsmith"),
        ("thumbs", 1.0, "langsmith"),
        ("helpful", 0.2, "langsmith"),
    ]
    listing = list_runs([tmp_path / "imported.jsonl"], Catalogue.in_memory())
    assert listing.rows[0].scores == {"correct": 1.0, "helpful": 0.2, "verdict": "wrong answer", "thumbs": 1.0}


def test_malformed_feedback_is_left_out_not_fatal():
    entries = feedback_entries(
        {
            "id": "r",
            "feedback_stats": {"a": "nan-ish", "b": {"avg": float("nan")}, "c": {"values": {"x": "3"}}, "d": 0.75},
            "feedback": ["not an item", {"key": None, "score": 1}, {"key": "ctl", "value": "bad\x1b[2J"}],
        }
    )
    assert [(s.name, s.value) for s in langsmith_scores(entries)] == [("d", 0.75)]
