"""Fork a recorded run at one reply or observation, and diff two runs transition by transition."""

import pytest

from executor import ScriptedModel
from tracer.cli import main
from tracer.replay.fork import ForkError, fork_trace
from tracer.report.diff import diff_traces, render_diff
from tracer.trace.normalise import normalise_events
from tracer.trace.transitions import Trace
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing").fixture
FINAL = " I can answer now.\nFinal Answer: about 31.5 yuan"


def rose():
    return Trace.load(ROSE)


def second_plan_end():
    return [e for e in rose().events if e.kind == "llm_end" and "plan" in e.frames][1]


def test_a_reply_fork_replays_up_to_the_point_then_takes_the_new_reply(tmp_path):
    at = second_plan_end().seq
    result = fork_trace(ROSE, at, reply=FINAL, output=tmp_path / "fork.jsonl")
    assert result.error is None and result.path == tmp_path / "fork.jsonl"
    fork, parent = Trace.load(result.path), rose()
    assert fork.header.parent == str(ROSE) and fork.header.fork_at == at
    assert fork.header.fork == {"reply": FINAL} and fork.header.scenario == "rose-pricing"
    same = normalise_events(parent.events[:at])
    assert [{k: v for k, v in e.items() if k != "run_id"} for e in normalise_events(fork.events[:at])] == [
        {k: v for k, v in e.items() if k != "run_id"} for e in same
    ]
    assert fork.events[at].text == FINAL
    assert fork.outcome() == "finished: about 31.5 yuan"
    assert "AgentAction(Calculator)" not in fork.labels()


def test_an_observation_fork_changes_what_the_model_sees_next(tmp_path):
    search_end = next(e for e in rose().events if e.kind == "tool_end" and e.tool == "Search")
    result = fork_trace(ROSE, search_end.seq, observation="Roses cost 40 yuan a bunch.", output=tmp_path / "obs.jsonl")
    fork = result.trace
    assert fork.events[search_end.seq].observation == "Roses cost 40 yuan a bunch."
    next_prompt = next(e for e in fork.events if e.kind == "llm_start" and e.seq > search_end.seq)
    assert "Observation: Roses cost 40 yuan a bunch.\nThought: " in next_prompt.prompt
    # By default the later plan calls get their recorded replies, given to the old prompts: the run
    # carries on to the old end, and each such call is named, with where its prompt changed.
    assert fork.labels() == rose().labels()
    first = result.changed[0]
    assert {c.answered for c in result.changed} == {"recording"}
    assert first.seq == next_prompt.seq and result.stale == result.changed
    assert "'Observation: Roses cost 40 yuan a bunch.'" in first.difference
    assert fork.header.after_fork == "recording"


CALC_FIRST = " Just arithmetic.\nAction: Calculator\nAction Input: 2 + 2"


def test_when_no_recorded_reply_fits_the_fork_stops_with_a_clear_error(tmp_path):
    first_end = next(e for e in rose().events if e.kind == "llm_end")
    result = fork_trace(ROSE, first_end.seq, output=tmp_path / "calc.jsonl", reply=CALC_FIRST)
    # The recording's calculator was asked about 25 * 1.05, never about 2 + 2: no reply fits.
    assert type(result.error).__name__ == "RecordingExhausted"
    assert result.trace.labels()[-2:] == [
        "tool_error(Calculator: RecordingExhausted, raised)",
        "chain_error(RecordingExhausted)",
    ]
    assert "pass --model to let a live model answer" in result.trace.events[-1].message


def test_a_live_model_answers_what_the_recording_cannot_and_every_changed_prompt(tmp_path):
    first_end = next(e for e in rose().events if e.kind == "llm_end")
    live = ScriptedModel(["```text\n2 + 2\n```", " I now know the final answer.\nFinal Answer: 4"], model_name="live")
    result = fork_trace(ROSE, first_end.seq, output=tmp_path / "live.jsonl", reply=CALC_FIRST, live_model=live)
    assert result.error is None and len(live.prompts) == 2 and "Question: 2 + 2" in live.prompts[0]
    # The calculator's question was never recorded; the plan call after it holds the new action in its
    # scratchpad, so its recorded reply (to another prompt) is not used: the live model answers it too.
    assert "Action Input: 2 + 2\nObservation: Answer: 4" in live.prompts[1]
    assert [(c.call, c.answered) for c in result.changed] == [(3, "live")] and not result.stale
    assert [e.observation for e in result.trace.events if e.kind == "tool_end"] == ["Answer: 4"]
    assert result.trace.header.live_after_fork == "live" and result.trace.header.after_fork == "live"
    assert result.trace.outcome() == "finished: 4"


@pytest.mark.parametrize(
    "at, kwargs, message",
    [
        (4, {"reply": "x"}, "event 4 is tool_start; --reply needs a model call"),
        (2, {"observation": "x"}, "event 2 is llm_end; --observation needs a tool call"),
        (999, {"reply": "x"}, "there is no event 999"),
        (2, {}, "give exactly one of"),
        (2, {"reply": "x", "observation": "y"}, "give exactly one of"),
    ],
)
def test_bad_fork_points_are_refused_with_a_reason(tmp_path, at, kwargs, message):
    with pytest.raises(ForkError, match=message):
        fork_trace(ROSE, at, output=tmp_path / "never.jsonl", **kwargs)
    assert not (tmp_path / "never.jsonl").exists()


def test_diff_of_a_run_with_itself_finds_no_parting_point():
    diff = diff_traces(ROSE, ROSE)
    assert diff.same and diff.parted_at is None and all(row.same for row in diff.rows)
    assert "The runs take the same transitions" in "\n".join(render_diff(diff))


def test_diff_of_a_fork_parts_at_the_forked_reply_and_shows_both_texts(tmp_path):
    at = second_plan_end().seq
    fork = fork_trace(ROSE, at, reply=FINAL, output=tmp_path / "fork.jsonl")
    diff = diff_traces(ROSE, fork.path)
    row = diff.rows[diff.parted_at]
    assert row.a.label == row.b.label == "plan" and row.a.seq == at - 1
    assert diff.differences[0] == "reply text differs:"
    assert "  +Final Answer: about 31.5 yuan" in diff.differences
    assert all(r.same for r in diff.rows[: diff.parted_at])
    text = "\n".join(render_diff(diff))
    assert "B finished: about 31.5 yuan" in text


def test_diff_names_a_changed_action_and_an_extra_transition(tmp_path):
    events = rose().events
    action = next(e for e in events if e.kind == "agent_action")
    other = [e.model_copy(update={"tool_input": "tulips"}) if e is action else e for e in events]
    diff = diff_traces(events, other)
    assert diff.differences == ["action input differs:", f"  A: {action.tool_input!r}", "  B: 'tulips'"]
    labels = Trace({}, events).labels()
    shorter = [e for e in events if e.kind != "step" or e.n_steps != 1]
    diff = diff_traces(events, shorter)
    assert diff.differences == [
        f"only A has step (event {next(e.seq for e in events if e.kind == 'step')}, iteration 1)"
    ]
    assert len(diff.rows) == len(labels)  # the one-sided row is not paired with a wrong partner


def test_fork_and_diff_commands(tmp_path, capsys):
    at = second_plan_end().seq
    out = tmp_path / "cli-fork.jsonl"
    assert main(["fork", str(ROSE), "--at", str(at), "--reply", FINAL, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"forked {ROSE} at event {at}: wrote {out}" in printed
    assert "it parts from the parent at transition 6 (plan)" in printed
    assert "outcome: finished: about 31.5 yuan" in printed
    assert main(["diff", str(ROSE), str(out)]) == 1
    shown = capsys.readouterr().out
    assert "The runs part at transition 6" in shown and "  ≠  " in shown
    assert main(["diff", str(ROSE), str(ROSE)]) == 0
    assert main(["fork", str(ROSE), "--at", "4", "--reply", "x", "-o", str(tmp_path / "no.jsonl")]) == 2
    assert "event 4 is tool_start" in capsys.readouterr().err
