"""A user's own agent replayed shows the real locals its live run has, at every event and frame, in all four kinds."""

from __future__ import annotations

import sys

import pytest

from tests.helpers.shop_agents import KINDS, record_shop
from tracer.debug.live_run import LiveRun
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.replay.verify import verify_trace


@pytest.fixture
def shop(tmp_path, monkeypatch):
    def recorded(kind: str):
        return record_shop(tmp_path, kind, monkeypatch)

    yield recorded
    sys.modules.pop("shop", None)


def _live(spec: str, trace) -> list:
    """Every (event, frames) of `debug --live SPEC`, the recording's replies answering (as without --model)."""
    run = LiveRun(spec, None, fixture=trace)
    pulled = []
    while (item := run.pull()) is not None:
        pulled.append(item)
    assert str(run.outcome) == "the run finished", run.outcome
    return pulled


@pytest.mark.parametrize("kind", KINDS)
def test_replayed_locals_of_a_users_agent_equal_its_live_locals_at_every_event(shop, kind):
    trace, spec = shop(kind)
    live = _live(spec, trace)
    replay = build_session(trace, options=DebuggerOptions(agents=(spec,)))
    assert len(replay) == len(live)
    for position, (event, frames) in enumerate(live):
        replayed = replay.store.frames_at(position)
        assert replayed is not None, replay.store.reenactment.problem
        assert [f.function for f in replayed] == [f.function for f in frames], position
        # The stack starts where the user started the run: their invoke, or iter_events under ainvoke.
        assert replayed[0].function == event.frames[0] == ("invoke" if kind in ("react", "calling") else "iter_events")
        for live_frame, replay_frame in zip(frames, replayed):
            assert list(replay_frame.locals) == list(live_frame.locals), (position, live_frame.function)


def test_parallel_calls_are_replayed_in_their_recorded_order_so_the_loops_locals_are_the_recorded_ones(shop):
    trace, spec = shop("calling")
    replay = build_session(trace, options=DebuggerOptions(agents=(spec,)))
    seen = []
    for position in range(len(replay)):
        event = replay.store.event(position)
        frames = replay.store.frames_at(position)
        assert frames is not None, replay.store.reenactment.problem
        if "perform_tool_calls" in event.frames:
            loop = dict(frames[-1].locals)
            assert frames[-1].function == "perform_tool_calls"
            seen.append((event.kind, event.tool_call_id, loop["running"]))
    ends = [running for kind, _call, running in seen if kind in ("tool_end", "tool_error")]
    assert ends == sorted(ends, reverse=True), "each call that ended is counted out before the next event"
    assert seen[0] == ("tool_start", "call_price", "3")


@pytest.mark.parametrize("kind", ["react-awaited", "calling-awaited"])
def test_a_run_recorded_under_ainvoke_verifies(shop, kind):
    trace, spec = shop(kind)
    result = verify_trace(trace, agents=[spec])
    assert result.status == "ok", result.message or result.difference


def test_without_the_agent_named_nothing_is_re_executed(shop):
    trace, _spec = shop("calling")
    replay = build_session(trace)
    assert replay.store.frames_at(3) is None
    assert "not trusted" in str(replay.store.reenactment.problem)
