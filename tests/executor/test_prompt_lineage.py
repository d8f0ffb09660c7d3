"""The scratchpad's word on how a prompt was made: exact, per text value, and never in the way of growing in place."""

from __future__ import annotations

from executor.agents.prompt import Scratchpad, prompt_lineage
from executor.schema import AgentAction

STEP_ONE = (AgentAction("Echo", "a", "Action: Echo\nAction Input: a"), "echo:a")
STEP_TWO = (AgentAction("Echo", "b", "Action: Echo\nAction Input: b"), "echo:b")


def test_each_prompt_names_the_text_it_was_made_from():
    pad = Scratchpad()
    first = pad.render("HEAD\n", [])
    first_number, first_base = prompt_lineage(first)
    assert first_base is None  # the template's head: made from nothing earlier
    second = pad.render("HEAD\n", [STEP_ONE])
    second_number, second_base = prompt_lineage(second)
    assert second_base == first_number and second.startswith(first) and second_number != first_number
    third = pad.render("HEAD\n", [STEP_ONE, STEP_TWO])
    assert prompt_lineage(third)[1] == second_number and third.startswith(second)


def test_a_text_appended_to_since_and_a_text_from_elsewhere_have_no_lineage():
    pad = Scratchpad()
    kept = pad.render("HEAD\n", [STEP_ONE])
    pad.render("HEAD\n", [STEP_ONE, STEP_TWO])
    # Forgotten before the append, so the registry never holds a reference that would stop the
    # scratchpad growing its text in place when nobody else keeps it.
    assert prompt_lineage(kept) is None
    assert prompt_lineage("HEAD\n" + "Action: Echo") is None
    assert prompt_lineage(str(kept)) is None or str(kept) is kept  # an equal text is not the same text


def test_a_new_run_on_the_same_agent_starts_a_new_line_of_numbers():
    pad = Scratchpad()
    last_of_first_run = pad.render("HEAD\n", [STEP_ONE, STEP_TWO])
    old_number = prompt_lineage(last_of_first_run)[0]
    head = pad.render("HEAD\n", [])  # a new run: not the steps it rendered, so it starts from the head
    head_number, head_base = prompt_lineage(head)
    assert head == "HEAD\n" and head_base is None and head_number != old_number
    again = pad.render("HEAD\n", [STEP_TWO])
    assert prompt_lineage(again)[1] == head_number  # made from the new run's head, not the old run's prompt
