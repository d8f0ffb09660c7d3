"""One recorded model call asked again: replayed when nothing changed, a model's answer otherwise."""

from __future__ import annotations

import pytest

from executor import ScriptedModel
from tests.helpers.paths import ROSE
from tracer.models.playground import REPLAYED, PlaygroundError, recorded_call, rerun_call
from tracer.trace.reader import load_trace


@pytest.fixture(scope="module")
def events():
    return load_trace(ROSE)[1]


def test_the_call_is_found_from_its_start_or_its_end(events):
    starts = [e.seq for e in events if e.kind == "llm_start"]
    at = starts[2]  # the calculator's own model call
    assert recorded_call(events, at) == recorded_call(events, at + 1)
    call = recorded_call(events, at)
    assert call.caller == "calculate" and call.prompt == events[at].prompt and call.reply == events[at + 1].text


def test_an_unchanged_prompt_replays_the_recorded_reply_without_a_model(events):
    rerun = rerun_call(recorded_call(events, 1))
    assert rerun.answered_by == REPLAYED and rerun.reply == events[2].text and rerun.reply_diff() == []


def test_a_changed_prompt_needs_a_model_and_gets_its_reply_with_a_diff(events):
    call = recorded_call(events, 1)
    with pytest.raises(PlaygroundError, match="the prompt changed"):
        rerun_call(call, call.prompt + " Be brief.")
    model = ScriptedModel([" I now know the final answer.\nFinal Answer: 42"])
    rerun = rerun_call(call, call.prompt + " Be brief.", ("scripted", model))
    assert rerun.prompt_changed and rerun.answered_by == "scripted"
    diff = rerun.reply_diff()
    assert "+Final Answer: 42" in diff and any(line.startswith("-Action: Search") for line in diff)


def test_only_model_calls_can_be_asked_again(events):
    with pytest.raises(PlaygroundError, match=r"event 3 is agent_action; pick a model call's llm_start \(events 1, 8"):
        recorded_call(events, 3)
