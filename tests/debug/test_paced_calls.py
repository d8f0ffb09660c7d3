"""PacedCalls: parallel calls take their recorded turns, wait to be passed, give up an order the re-run left, stop on close."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from tracer.debug.paced_calls import CallsStopped, PacedCalls, recorded_call_order


def event(seq: int, call: str | None, frames=("invoke", "_call", "perform_tool_calls", "run"), kind="tool_start"):
    return SimpleNamespace(seq=seq, tool_call_id=call, frames=frames, kind=kind)


def test_the_recorded_order_names_each_calls_last_event_in_its_stretch():
    loop = ("invoke", "_call")
    events = [
        event(0, None, loop, "chain_start"),
        event(1, "a", loop, "agent_action"),  # the loop's own event: not a call's turn
        event(2, "a"),
        event(3, "b"),
        event(4, "a", kind="tool_end"),
        event(5, "b", kind="tool_end"),
        event(6, "a", loop, "step"),
        event(7, "a"),  # the next reply reuses the id: a stretch of its own
        event(8, "a", kind="tool_end"),
    ]
    assert recorded_call_order(events) == [
        ("a", False),
        ("b", False),
        ("a", True),
        ("b", True),
        ("a", False),
        ("a", True),
    ]


def _emit(gate: PacedCalls, call: str, seq: int, emitted: list) -> None:
    gate.before_event(call)
    emitted.append(call)
    gate.after_event(event(seq, call))


def test_calls_emit_in_the_recorded_order_one_at_a_time_each_waiting_to_be_passed():
    gate = PacedCalls([("b", True), ("a", True)], patience=30)  # far longer than any wait below
    emitted: list[str] = []
    first = threading.Thread(target=_emit, args=(gate, "a", 1, emitted))
    first.start()  # a is early, but b's turn comes first
    first.join(0.2)
    assert emitted == [] and first.is_alive()
    second = threading.Thread(target=_emit, args=(gate, "b", 0, emitted))
    second.start()
    second.join(0.2)
    assert emitted == ["b"] and second.is_alive(), "b emitted and now waits until its event is passed"
    gate.handed(event(0, "b"))
    second.join(2)
    assert not second.is_alive() and first.is_alive(), "a waits for b to end: b's was its last event"
    gate.call_done("b")
    gate.handed(event(1, "a"))
    first.join(2)
    assert emitted == ["b", "a"] and not first.is_alive()


def test_a_re_run_that_leaves_the_recorded_order_is_not_held_up_for_long():
    gate = PacedCalls([("x", True)], patience=0.05)
    emitted: list[str] = []
    worker = threading.Thread(target=_emit, args=(gate, "y", 0, emitted))
    worker.start()
    gate.handed(event(0, "y"))
    worker.join(5)
    assert emitted == ["y"] and not worker.is_alive()


def test_closing_stops_a_call_held_at_its_event():
    gate = PacedCalls()
    failures: list[BaseException] = []

    def held():
        gate.before_event("a")
        try:
            gate.after_event(event(0, "a"))
        except CallsStopped as stop:
            failures.append(stop)

    worker = threading.Thread(target=held)
    worker.start()
    worker.join(0.1)
    assert worker.is_alive()
    gate.close()
    worker.join(2)
    assert not worker.is_alive() and len(failures) == 1
    with pytest.raises(CallsStopped):
        gate.after_event(event(1, "b"))
