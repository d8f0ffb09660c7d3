"""A Langfuse score given to one observation (its `observationId`: an evaluator's verdict on a model call, a
thumbs-down on a tool) is that event's score, not the run's; the run keeps only its own. Read from Langfuse's
real LangGraph export with the observation ids its scores would carry."""

from __future__ import annotations

import copy
import json

from tests.helpers.paths import ROOT
from tracer.cli import main
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.trace.reader import TraceFile

LANGGRAPH = ROOT / "tests" / "data" / "langfuse" / "langgraph-2025-08-22.json"
FIRST_MODEL_CALL, WEB_SEARCH = "4f6535aaebcda355", "21441266a9f21251"
HOSTILE = "stale \x1b[2J\x1b]8;;https://evil.example\x07[bold red]now[/]"


def exported() -> dict:
    return json.loads(LANGGRAPH.read_text("utf-8"))


def imported(tmp_path, export: dict):
    source, out = tmp_path / "langfuse.json", tmp_path / "run.jsonl"
    source.write_text(json.dumps(export), "utf-8")
    assert main(["import", str(source), "-o", str(out)]) == 0
    return out


def scored(path) -> list[tuple[str, float | str, str | None, str | None]]:
    """(name, value, kind of its event, what that event names) for each score, in the trace's order."""
    with TraceFile(path) as trace:
        found = []
        for score in trace.scores:
            event = trace[score.event] if score.event is not None else None
            found.append((score.name, score.value, event and event.kind, event and getattr(event, "tool", None)))
        return found


def test_scores_on_a_model_call_and_a_tool_belong_to_their_events(tmp_path):
    export = exported()
    hallucination, toxicity = export["trace"]["scores"]
    hallucination["observationId"] = FIRST_MODEL_CALL
    verdict = {**copy.deepcopy(toxicity), "id": "s-3", "name": "user thumb", "value": 0, "comment": HOSTILE}
    export["trace"]["scores"].append({**verdict, "observationId": WEB_SEARCH})
    out = imported(tmp_path, export)
    assert scored(out) == [
        ("toxicity", 0.0, None, None),  # given to the trace: the run's, as before
        ("hallucination", 0.1, "llm_end", None),
        ("user_thumb", 0.0, "tool_end", "Web-Search"),
    ]
    with TraceFile(out) as trace:
        comment = trace.scores[2].comment  # its escapes made visible, its markup kept as text
        assert "\x1b" not in comment and "\x07" not in comment and comment.endswith("[bold red]now[/]")
    row = list_runs([out], Catalogue.in_memory()).rows[0]
    assert row.scores == {"toxicity": 0.0}  # the model call's hallucination is not the run's
    assert [(s.kind, s.name) for s in row.event_scores] == [("llm_end", "hallucination"), ("tool_end", "user_thumb")]


def test_an_unknown_or_malformed_observation_id_leaves_the_score_with_the_run(tmp_path):
    export = exported()
    hallucination, toxicity = export["trace"]["scores"]
    hallucination["observationId"] = "no-such-observation"
    toxicity["observationId"] = ["5ba09605e0929d78"]  # hostile: a list is not an id (and not hashable)
    out = imported(tmp_path, export)
    assert scored(out) == [("toxicity", 0.0, None, None), ("hallucination", 0.1, None, None)]


def test_a_score_on_the_traces_only_top_observation_is_the_runs(tmp_path):
    export = exported()
    export["trace"]["scores"][0]["observationId"] = "b024c7ee7680b708"  # the LangGraph span: the run itself
    out = imported(tmp_path, export)
    assert all(event is None for _name, _value, event, _tool in scored(out))
