"""The line tracer behind live step-into: one call of one function, its lines and locals, then gone."""

from __future__ import annotations

import sys
import threading
from types import SimpleNamespace

import pytest

from executor.callee import callee_of
from tracer.debug.live_run import _function_snapshot
from tracer.debug.monitored_call import line_tracer
from tracer.debug.step_into import FunctionTracer, why_not_steppable

# sys.settrace everywhere, and what a live run uses (sys.monitoring on 3.12+; the same settrace on 3.11)
TRACERS = pytest.mark.parametrize("make", [FunctionTracer, line_tracer], ids=["settrace", "for-this-python"])


def countdown(n):
    left = n - 1
    if left > 0:
        countdown(left)  # the recursive call is not followed: the trace is scoped to the first call
    return left


def loop_twice():
    total = 0
    for i in range(2):
        total += i
        total *= 1
    return total


def monitoring_left():
    """3.12+: the debugger's sys.monitoring tool id is still taken (None on 3.11: there is none)."""
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and monitoring.get_tool(monitoring.DEBUGGER_ID) is not None


def traced(make, function, *args, mode="step", lines=frozenset(), before=None):
    """Run function(*args) in a fresh thread under a FunctionTracer; the lines it stopped at, and the tracer."""
    stops, tracer = [], None

    def gate(stop):
        stops.append((stop.frame.line, dict(stop.frame.locals), stop.reason))

    def work():
        nonlocal tracer
        tracer = make(callee_of(function), gate, _function_snapshot, mode, lines)
        sys.settrace(before)
        tracer.install()
        function(*args)
        stops.append(("after", sys.gettrace(), None))

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(5)
    return stops, tracer


@TRACERS
def test_every_line_of_the_first_call_only_and_the_trace_function_is_gone_after_it_returns(make):
    stops, tracer = traced(make, countdown, 3)
    first = countdown.__code__.co_firstlineno
    assert [line for line, _locals, _reason in stops[:-1]] == [first + 1, first + 2, first + 3, first + 4]
    assert stops[1][1] == {"n": "3", "left": "2"}  # real locals, as short reprs
    assert stops[-1] == ("after", None, None) and not tracer.threads and tracer.returned
    assert not monitoring_left()


@TRACERS
def test_lines_mode_stops_only_at_the_breakpoint_lines(make):
    first = countdown.__code__.co_firstlineno
    stops, _tracer = traced(make, countdown, 1, mode="lines", lines=frozenset({first + 4}))
    assert stops[:-1] == [(first + 4, {"n": "1", "left": "0"}, "breakpoint")]


@TRACERS
def test_the_functions_callees_and_other_threads_are_not_stepped(make):
    stops, _tracer = traced(make, lambda: countdown(2))  # the lambda is the target: countdown is only called
    assert [line for line, _l, _r in stops[:-1]] == [stops[0][0]] and stops[-1][1] is None
    assert sys.gettrace() is None  # this (the test's) thread never had it


def test_a_tool_call_in_a_worker_thread_is_steppable_and_loopscopes_own_code_is_not():
    callee = callee_of(countdown)
    parallel = SimpleNamespace(
        kind="tool_start", callee=callee, tool_call_id="call_1", frames=("invoke", "perform_tool_calls")
    )
    assert why_not_steppable(parallel) is None  # its worker thread is followed (test_step_into_parallel.py)
    react = SimpleNamespace(kind="tool_start", callee=callee, tool_call_id=None, frames=("invoke", "run"))
    assert why_not_steppable(react) is None
    ours = SimpleNamespace(
        kind="tool_start", callee=callee.model_copy(update={"file": "tutorials/x.py"}), tool_call_id=None, frames=()
    )
    said = why_not_steppable(ours)
    assert said is not None and "loopscope's own code" in said.text()
    assert said.text("zh") == "countdown() 是 loopscope 自己的代码（tutorials/x.py）；进入函数是为你自己的工具准备的"


@TRACERS
def test_a_trace_function_already_installed_comes_back_when_the_call_returns(make):
    def coverage_like(frame, event, arg):
        return None

    stops, _tracer = traced(make, countdown, 1, before=coverage_like)
    assert stops[-1] == ("after", coverage_like, None)


def test_a_tool_with_a_timeout_runs_in_its_own_thread_and_says_so(tmp_path, monkeypatch):
    from tests.helpers.user_project import recorded_florist
    from tracer.debug.live_run import LiveRun

    recorded, _source, _line_of = recorded_florist(tmp_path, monkeypatch)
    try:
        run = LiveRun("florist:build", None, fixture=recorded)
        next(t for t in run.executor.tools if t.name == "price").timeout = 5.0
        while (pulled := run.pull()) and pulled[0].kind != "tool_start":
            pass
        said = run.why_not_step_into(pulled[0])
        assert said is not None
        assert said.text() == "price has a timeout, so it runs in a thread of its own, which is not traced"
        assert said.text("zh") == "price 设有超时，所以在自己的线程里运行，那个线程不被跟踪"
        run.close()
    finally:
        sys.modules.pop("florist", None)


@TRACERS
def test_stepping_on_from_a_breakpoint_line_stops_at_every_line_again(make):
    first = loop_twice.__code__.co_firstlineno
    stops, tracer = [], None

    def gate(stop):
        stops.append(stop.frame.line)
        tracer.retarget("step", frozenset())  # at the breakpoint the learner presses s

    def work():
        nonlocal tracer
        tracer = make(callee_of(loop_twice), gate, _function_snapshot, "lines", frozenset({first + 4}))
        tracer.install()
        loop_twice()
        tracer.uninstall()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(5)
    assert stops == [first + 4, first + 2, first + 3, first + 4, first + 2, first + 5]
    traced(make, loop_twice)  # and a later call of the same function is stepped from its first line
    again, _tracer = traced(make, loop_twice)
    assert [line for line, _l, _r in again[:-1]][:3] == [first + 1, first + 2, first + 3]
    assert not monitoring_left()
