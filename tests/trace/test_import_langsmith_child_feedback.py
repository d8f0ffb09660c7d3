"""LangSmith feedback given on a child run (an evaluator scoring one model call, a thumbs-down on a tool's
output) arrives as a score of the event that run became, in both shapes an export holds child runs (nested
`child_runs`, a flat list linked by `parent_run_id`); the run's own scores stay as they were."""

from __future__ import annotations

import shutil

from tests.helpers.langsmith_child_feedback import FIRST_REPLY, SEARCH_END, imported, tree, with_child_feedback
from tests.helpers.paths import ROSE
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs
from tracer.trace.annotations import Score, append_score
from tracer.trace.reader import TraceFile

LAST_REPLY = 7  # the second model call's reply, just before chain_end


def flat(runs: list[dict]) -> list[dict]:
    """The same runs as client.list_runs() lists them: one list, each child naming its parent."""
    root = dict(runs[0])
    children = root.pop("child_runs")
    return [root, *({**run, "parent_run_id": root["id"]} for run in children)]


def placed(path) -> list[tuple[str, float | str, int | None, str | None]]:
    with TraceFile(path) as trace:
        kinds = [trace[position].kind for position in range(len(trace))]
        return [(s.name, s.value, s.event, kinds[s.event] if s.event is not None else None) for s in trace.scores]


def test_nested_child_runs_feedback_is_tied_to_their_events(tmp_path):
    out = imported(tmp_path, with_child_feedback(tree()))
    assert placed(out) == [
        ("correctness", 1.0, None, None),  # the root's own feedback_stats: the run's, as before
        ("correctness", 0.0, FIRST_REPLY, "llm_end"),
        ("user_thumb", 0.0, SEARCH_END, "tool_end"),
    ]
    with TraceFile(out) as trace:
        assert trace[SEARCH_END].tool == "Search"
        assert trace.scores[1].comment == "wrong tool"


def test_a_flat_run_list_and_the_roots_joined_feedback_list_reach_the_child(tmp_path):
    runs = flat(tree())
    tool = next(run for run in runs if run["id"] == "r-tool")
    verdict = {"id": "fb-2", "run_id": "r-llm-2", "key": "Final answer", "value": "right", "comment": "ok"}
    # An export that joined list_feedback(trace) to the root holds its children's feedback there.
    runs[0]["feedback"] = [{"id": "fb-3", "run_id": "r-tool", "key": "user_thumb", "score": 0}, verdict]
    tool["feedback"] = [{"id": "fb-3", "run_id": "r-tool", "key": "user_thumb", "score": 0}]  # the same item
    out = imported(tmp_path, runs)
    assert placed(out) == [
        ("correctness", 1.0, None, None),
        ("user_thumb", 0.0, SEARCH_END, "tool_end"),  # once, though two lists hold it
        ("final_answer", "right", LAST_REPLY, "llm_end"),
    ]


def test_runs_keeps_the_runs_own_scores_and_says_which_event_a_childs_belongs_to(tmp_path):
    out = imported(tmp_path, with_child_feedback(tree()))
    row = list_runs([out], Catalogue.in_memory()).rows[0]
    assert row.scores == {"correctness": 1.0}  # the child's 0.0 is not the run's latest correctness
    assert [(s.event, s.kind, s.name, s.value) for s in row.event_scores] == [
        (FIRST_REPLY, "llm_end", "correctness", 0.0),
        (SEARCH_END, "tool_end", "user_thumb", 0.0),
    ]
    assert row.to_json()["event_scores"][1] == {
        "event": SEARCH_END,
        "kind": "tool_end",
        "name": "user_thumb",
        "value": 0.0,
    }


def test_a_score_line_without_an_event_is_the_runs_and_a_bad_event_is_ignored(tmp_path):
    path = shutil.copy(ROSE, tmp_path / "rose.jsonl")
    with open(path, "a", encoding="utf-8") as handle:  # as an older loopscope wrote them, and hand-edited ones
        handle.write('{"annotation": "score", "name": "old", "value": 1, "at": "", "source": "loopscope"}\n')
        for bad in ("true", "-1", '"3"', "2.0"):
            handle.write(f'{{"annotation": "score", "name": "odd", "value": 1, "event": {bad}}}\n')
    append_score(path, Score("tied", 0.5, event=3))
    with TraceFile(path) as trace:
        assert [(s.name, s.event) for s in trace.scores] == [("old", None), *[("odd", None)] * 4, ("tied", 3)]


def test_feedback_on_a_chain_inside_the_run_goes_to_the_last_event_it_saw(tmp_path):
    """A chain child run becomes no event of its own (only frames): its feedback is placed at the last
    event made by the time it ended, here the Search tool's answer, not lost and not the run's."""
    runs = tree()
    runs[0]["child_runs"].append(
        {
            "id": "r-guard",
            "name": "OutputGuard",
            "run_type": "chain",
            "start_time": "2025-02-10T08:00:02.600",
            "end_time": "2025-02-10T08:00:02.700",
            "inputs": {},
            "outputs": {},
            "feedback_stats": {"guard passed": {"n": 2, "values": {"yes": 1, "no": 2}}},
        }
    )
    assert placed(imported(tmp_path, runs))[1:] == [("guard_passed", "no", SEARCH_END, "tool_end")]


def test_a_hostile_feedback_key_becomes_a_plain_word(tmp_path):
    runs = tree()
    runs[0]["child_runs"][1]["feedback"] = [{"run_id": "r-tool", "key": "[red]thumb\x1b[2J", "score": 1}]
    assert placed(imported(tmp_path, runs))[1:] == [("red_thumb_2j", 1.0, SEARCH_END, "tool_end")]
