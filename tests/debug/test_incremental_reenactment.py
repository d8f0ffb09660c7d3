"""Re-executing a recording for its locals goes as far as asked and resumes from where it paused."""

from __future__ import annotations

import reprlib
import threading

import pytest

import tutorials
from executor.events import LLMStartEvent, SourceRef
from executor.schema import AgentAction, AgentStep
from tracer.debug import run_ahead
from tracer.debug.locals_repr import short_repr
from tracer.debug.session import build_session


@pytest.fixture
def handed_over(monkeypatch) -> list[int]:
    """Every event any re-executed run hands out, by its seq, in the order they come."""
    seen: list[int] = []
    hand_over = run_ahead.RunAhead._hand_over

    def counted(self, event):
        seen.append(event.seq)
        hand_over(self, event)

    monkeypatch.setattr(run_ahead.RunAhead, "_hand_over", counted)
    return seen


def test_going_further_runs_only_the_events_in_between_and_going_back_runs_none(handed_over):
    session = build_session(tutorials.SCENARIOS["iteration-limit"].fixture)  # 110 events
    store = session.store
    try:
        assert store.frames_at(40) is not None
        assert handed_over == list(range(41)), "up to the event asked for, and no further"
        assert store.frames_at(50) is not None
        assert handed_over == list(range(51)), "resumed at event 41: the run was not started again"
        assert store.frames_at(7) is not None and len(handed_over) == 51, "an earlier event's frames were kept"
        assert store.reenactment.produced == 51
    finally:
        store.close()


def test_the_worker_steps_towards_the_event_shown_in_chunks_and_never_past_it(handed_over):
    session = build_session(tutorials.SCENARIOS["iteration-limit"].fixture)
    store = session.store
    try:
        store.reenact_towards(95, most=30)
        assert len(handed_over) == 30
        store.reenact_towards(35, most=30)
        assert len(handed_over) == 36, "only as far as event 35"
        store.reenact_towards(35, most=30)
        assert len(handed_over) == 36 and not store.locals_pending(35)
    finally:
        store.close()


def test_closing_stops_a_run_that_waits_where_it_was_asked_to_go():
    session = build_session(tutorials.SCENARIOS["rose-pricing"].fixture)
    store = session.store
    store.frames_at(3)
    run = store.reenactment._run
    assert run is not None and run._thread is not None and run._thread.is_alive(), "paused at event 3"
    store.close()
    assert not run._thread.is_alive() and run.outcome == "the run was stopped"
    # this run's thread only: a whole suite in one process may still be closing other tests' sessions
    assert run._thread not in threading.enumerate()


def _reprlib() -> reprlib.Repr:
    plain = reprlib.Repr()
    plain.maxstring = plain.maxother = 160
    plain.maxlist = plain.maxdict = 8
    plain.maxlevel = 3
    return plain


@pytest.mark.parametrize("prompt_length", [0, 40, 100, 160, 200, 100_000])
def test_a_locals_repr_is_reprlibs_however_long_the_event_and_made_once(prompt_length):
    source = SourceRef(file="executor/agent_executor.py", line=12, function="plan")
    event = LLMStartEvent(
        seq=1,
        run_id="r",
        t=0.0,
        iteration=1,
        frames=("invoke",),
        source=source,
        model="m",
        prompt="p" * prompt_length,
        stop=[],
    )
    step = AgentStep(AgentAction(tool="Search", tool_input="roses", log="x" * 500), "y" * 300)
    for value in (event, [event, step], (step, step), {"event": event}):
        assert short_repr(value) == _reprlib().repr(value)
        assert short_repr(value) == _reprlib().repr(value), "the kept repr is the same"


def test_a_list_that_grows_is_repr_d_anew_each_time():
    steps: list = []
    before = short_repr(steps)
    steps.append(("Search", "roses"))
    assert short_repr(steps) != before and "Search" in short_repr(steps)
