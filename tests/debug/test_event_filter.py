"""The timeline filter's language and the positions it shows; stepping within it."""

from __future__ import annotations

import pytest

from tests.helpers.paths import ROSE
from tracer.debug.event_filter import EventFilter, FilterSpecError
from tracer.debug.session import build_session
from tracer.debug.stepping import Motion, move_within


@pytest.fixture
def session(tmp_path):
    import shutil

    return build_session(shutil.copy(ROSE, tmp_path / "rose.jsonl"))


def kinds(session):
    return [session.event(p).kind for p in range(len(session))]


def test_kinds_tools_iterations_and_conditions_narrow_together(session):
    every = kinds(session)
    session.set_filter("llm_start, llm_end")
    assert [every[p] for p in session.shown()] == [k for k in every if k in ("llm_start", "llm_end")]
    session.set_filter("tool=Calculator")
    assert {session.event(int(p)).kind for p in session.shown()} >= {"agent_action", "tool_start", "tool_end"}
    assert all(getattr(session.event(int(p)), "tool", "Calculator") == "Calculator" for p in session.shown())
    session.set_filter("llm_start iteration=2")  # different sorts must all hold
    assert [session.event(int(p)).iteration for p in session.shown()] == [2, 2]
    session.set_filter("iteration=1-2 if kind == 'finish_check'")
    assert len(session.shown()) == 2
    session.set_filter("")
    assert session.shown() is None


@pytest.mark.parametrize(
    "text, message",
    [
        ("llm_begin", "unknown event kind 'llm_begin'"),
        ("tool=", "cannot read 'tool='"),
        ("iteration=two", "cannot read"),
        ("if iteration >", "bad condition"),
    ],
)
def test_unreadable_filters_say_what_is_wrong(text, message):
    with pytest.raises(FilterSpecError, match=message):
        EventFilter.parse(text)


def test_step_within_lands_only_on_shown_events_both_ways(session):
    session.set_filter("tool_start")
    shown = [int(p) for p in session.shown()]
    index, marks, resolve = session.store.index, session.breakpoints, session.store.resolve_at
    stop = move_within(session.shown(), index, marks, resolve, 0, Motion.STEP, 1)
    assert stop.position == shown[0]
    stop = move_within(session.shown(), index, marks, resolve, shown[0], Motion.NEXT, 1)
    assert stop.position == shown[1]
    back = move_within(session.shown(), index, marks, resolve, shown[1], Motion.STEP, -1)
    assert back.position == shown[0]
    edge = move_within(session.shown(), index, marks, resolve, shown[-1], Motion.STEP, 1)
    assert (edge.position, edge.moved, edge.reason) == (shown[-1], False, "end")


def test_a_condition_the_index_cannot_decide_is_computed_without_installing_it_and_can_be_cancelled(session):
    chosen = EventFilter.parse('if tool_input == "25 * 1.05"')
    shown = session.filter_positions(chosen)
    assert [session.event(int(p)).kind for p in shown] == ["agent_action", "tool_start"]
    assert session.shown() is None  # computed, not installed
    assert all(getattr(session.event(int(p)), "tool_input", None) == "25 * 1.05" for p in shown)
    session.install_filter(chosen, shown, len(session))
    assert list(session.shown()) == list(shown)
    assert session.filter_positions(chosen, cancelled=lambda: True) is None


def test_reading_every_line_lets_go_of_the_pages_read(session, monkeypatch):
    from tracer.debug import event_store

    monkeypatch.setattr(event_store, "RELEASE_EVERY", 5)
    released = []
    monkeypatch.setattr(session.store.trace, "release_lines", lambda first, count: released.append((first, count)))
    session.set_filter('if run_id == "no such run"')  # every event has a run_id, which the index does not hold
    assert list(session.shown()) == []
    covered = {line for first, count in released for line in range(first, first + count)}
    assert len(released) == len(session) // 5 and covered == set(range(len(released) * 5))
