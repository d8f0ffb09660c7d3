"""A LangSmith run export with feedback on its child runs: an evaluator's stat on a model call, a user's
hostile thumbs-down on a tool run; imported the way `loopscope import` does."""

from __future__ import annotations

import json

from tests.helpers.paths import ROOT
from tracer.cli import main

RUN_TREE = ROOT / "tests" / "data" / "langsmith" / "agent_run_tree.json"
HOSTILE = "stale \x1b[2J\x1b]8;;https://evil.example\x07price [bold red]now[/]"
# What the tool-calling run tree becomes: the first model call's reply, then the Search tool's answer.
FIRST_REPLY, SEARCH_END = 2, 5


def tree() -> list[dict]:
    return json.loads(RUN_TREE.read_text("utf-8"))


def child(runs: list[dict], run_id: str) -> dict:
    return next(run for run in runs[0]["child_runs"] if run["id"] == run_id)


def with_child_feedback(runs: list[dict]) -> list[dict]:
    """An evaluator's stat on the first model call; a user's thumbs-down, its comment hostile, on the
    Search run (a feedback item as client.list_feedback() dumps it)."""
    child(runs, "r-llm-1")["feedback_stats"] = {"correctness": {"n": 1, "avg": 0.0, "comments": ["wrong tool"]}}
    child(runs, "r-tool")["feedback"] = [
        {
            "id": "fb-1",
            "run_id": "r-tool",
            "key": "user_thumb",
            "score": 0,
            "comment": HOSTILE,
            "created_at": "2025-02-10T09:00:00+00:00",
        }
    ]
    return runs


def imported(tmp_path, runs: list[dict]):
    source, out = tmp_path / "runs.json", tmp_path / "imported.jsonl"
    source.write_text(json.dumps(runs), "utf-8")
    assert main(["import", str(source), "-o", str(out)]) == 0
    return out
