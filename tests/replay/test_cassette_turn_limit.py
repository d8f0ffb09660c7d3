"""run_agent's max_turns: a value that is not a whole number of turns is refused in one line, before any run."""

from __future__ import annotations

import pytest

from tracer.replay.cassette import Cassette


@pytest.mark.parametrize("turns", [0, -1, True, "3", 2.5])
def test_a_turn_limit_that_is_not_a_whole_number_is_refused_before_anything_runs(tmp_path, turns):
    from pydantic_ai import Agent

    agent = Agent("test")  # pydantic-ai's own offline model; never reached here
    cassette = Cassette(tmp_path / "c.jsonl", "once")
    with pytest.raises(ValueError) as refused:
        cassette.run_agent(agent, "q", max_turns=turns)
    assert "whole number of turns" in str(refused.value) and "\n" not in str(refused.value)
    assert not (tmp_path / "c.jsonl").exists()
