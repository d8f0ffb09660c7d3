"""Live step-into: `s` at a tool_start runs the user's tool function line by line, `r` returns to the events."""

from __future__ import annotations

import sys

import pytest

from tests.debug.test_step_into import monitoring_left
from tests.helpers.parallel_agent import recorded_parallel
from tests.helpers.pilot_helpers import answer, debugger, highlighted, pane_text, said, settle, status
from tests.helpers.user_project import recorded_florist
from tracer.debug.live_run import LiveRun
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import build_session
from tracer.debug.step_into import on_awaiting_loop
from tracer.tui.app import DebuggerApp

SIZE = (120, 40)


@pytest.fixture
def florist(tmp_path, monkeypatch):
    """florist.py in a temp project, a recording of it (its replies answer the live run), and its lines."""
    yield recorded_florist(tmp_path, monkeypatch)
    sys.modules.pop("florist", None)


def spied_run(tmp_path, recorded) -> tuple[LiveRun, list]:
    """A live run of the florist whose listener notes, in the run's own thread, the trace function there."""
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    seen: list = []
    real = run._hand_over

    def spy(event):
        seen.append((event.kind, getattr(event, "tool", None), sys.gettrace()))
        real(event)

    run._hand_over = spy
    return run, seen


def footer_label(app, binding_id: str) -> str:
    """What the footer shows for a key (the screen's bindings are what the Footer draws)."""
    bindings = app.screen._bindings.key_to_bindings.values()
    return next(b.description for group in bindings for b in group if b.id == binding_id)


def idle(app) -> bool:
    return not app.screen.busy


async def test_s_at_a_tool_start_steps_through_the_tools_lines_and_r_returns(florist, tmp_path):
    recorded, source, line_of = florist
    run, seen = spied_run(tmp_path, recorded)
    app = debugger(None, live=run)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "s", "s", "s")
        await settle(pilot, lambda: idle(app) and app.session.position == 4)
        assert app.session.event().kind == "tool_start" and app.session.event().tool == "price"
        assert "s: step into price() line by line" in status(app)
        assert footer_label(app, "step-forward") == "step into price()"
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop is not None)
        first = line_of("each = {")
        assert highlighted(app) == (source.resolve().as_posix(), first)
        assert "paused at this line" in str(app.screen.query_one("#source-pane").border_title)
        assert "r: run price() to its end" in status(app)
        assert footer_label(app, "out-forward") == "run price() to its end"
        assert footer_label(app, "step-forward") == "next line"
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop.frame.line == first + 1)
        assert highlighted(app)[1] == first + 1
        variables = pane_text(app, "variables-text")
        assert "▶ price()" in variables and "each" in variables and "2.5" in variables
        assert "quantity" in variables and "'rose'" in variables
        assert len(app.session) == 5  # still paused inside the call: no event has come
        await pilot.press("r")
        await settle(pilot, lambda: idle(app) and run.line_stop is None)
        assert app.session.event().kind == "tool_end" and app.session.position == 5
        assert "price() is done → event 5 (tool_end)" in said(app)
        assert highlighted(app)[1] != first + 1
        assert footer_label(app, "step-forward") == "step" and footer_label(app, "out-forward") == "step out"
        await pilot.press("n", "n")
        await settle(pilot, lambda: idle(app) and app.session.position == 7)
    app.session.store.close()
    traced = [kind for kind, tool, trace in seen if trace is not None]
    assert traced == [] and not run.tracing  # removed when price returned, before tool_end was handed over
    assert not monitoring_left()
    assert [kind for kind, _tool, _trace in seen][4:6] == ["tool_start", "tool_end"]


async def test_an_async_tool_is_traced_across_its_await_and_the_loop_thread_is_left_clean(florist, tmp_path):
    recorded, _source, line_of = florist
    run, _seen = spied_run(tmp_path, recorded)
    app = debugger(None, live=run, breakpoints=["tool=stock"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop is not None)
        assert highlighted(app)[1] == line_of("await asyncio.sleep(0)")
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop.frame.line == line_of('return f"{item}: 40'))
        await pilot.press("r")
        await settle(pilot, lambda: idle(app) and run.line_stop is None)
        assert app.session.event().kind == "tool_end"
    app.session.store.close()
    assert _loop_thread_trace() is None and not run.tracing and not monitoring_left()


def _loop_thread_trace():
    found = []
    on_awaiting_loop(lambda: found.append(sys.gettrace()), wait=True)
    return found[0]


async def test_closing_mid_step_ends_the_run_and_leaves_no_trace_function(florist, tmp_path):
    recorded, _source, _line_of = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=["tool=price"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop is not None)
        thread = run._thread
    app.session.store.close()
    thread.join(timeout=60)  # a limit for a run that never stops, not a speed: a loaded machine takes its time
    assert not thread.is_alive() and str(run.outcome) == "the run was stopped"
    assert not run.tracing and sys.gettrace() is None  # this thread (the UI's) was never traced
    assert not monitoring_left()


async def test_s_in_replay_says_stepping_into_the_function_needs_live_mode(florist):
    recorded, _source, _line_of = florist
    app = debugger(recorded)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(4)
        await pilot.press("s")
        await settle(pilot)
        assert app.session.position == 5
        assert "stepping into price() line by line needs live mode" in said(app)


async def test_a_tool_the_recording_answers_is_not_stepped_into_and_says_why(florist, tmp_path):
    recorded, _source, _line_of = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=["tool=Discount"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_end")
        assert "Discount is not re-run here" in said(app) and run.line_stop is None
    app.session.store.close()


async def test_in_chinese_the_reason_s_does_not_step_in_is_chinese_too(florist, tmp_path):
    recorded, _source, _line_of = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    options = DebuggerOptions(breakpoints=("tool=Discount",), lang="zh")
    app = DebuggerApp(build_session(None, options=options, live=run))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_end")
        assert "没有进入函数：Discount 在这里不会重新运行" in said(app, "zh") and "is not re-run" not in said(app, "zh")
    app.session.store.close()


async def test_a_line_breakpoint_in_the_users_file_stops_live_on_that_line(florist, tmp_path):
    recorded, _source, line_of = florist
    line = line_of("total = each")
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=[f"florist.py:{line}"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app))
        assert run.line_stop is not None and run.line_stop.frame.line == line  # the line, not the tool_start
        assert app.session.event().kind == "tool_start" and highlighted(app)[1] == line
        assert f"continue: stopped at breakpoint #1 line=florist.py:{line} (hit 1) in price()" in said(app)
        assert "each" in pane_text(app, "variables-text") and "total" not in pane_text(app, "variables-text")
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.store.complete)
        assert "the run finished" in said(app)
    app.session.store.close()


async def test_adding_a_line_breakpoint_no_event_can_reach_says_so(florist, tmp_path):
    recorded, _source, line_of = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run)
    imports = line_of("import asyncio")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("B")
        await answer(pilot, f"florist.py:{imports}")
        expected = f"no event can reach florist.py:{imports}: it is outside every function the loop calls"
        assert expected in said(app)
        await pilot.press("4")
        await settle(pilot)
        assert expected in str(app.screen.query_one("#breakpoints-list").render())
    app.session.store.close()


def test_the_new_status_lines_have_a_chinese_version():
    from tracer.debug.session import motion_name
    from tracer.debug.stepping import Motion
    from tracer.i18n import Message

    step, out = motion_name(Motion.STEP), motion_name(Motion.OUT)
    line = Message("debugger.at_line", {"motion": step, "function": "price", "line": 11})
    assert (str(line), line.text("zh")) == ("step: price() line 11", "单步：price() 第 11 行")
    done = Message("debugger.done", {"motion": out, "name": "price()", "seq": 5, "kind": "tool_end"})
    assert (str(done), done.text("zh")) == (
        "step out: price() is done → event 5 (tool_end)",
        "跳出：price() 已返回 → 事件 5（tool_end）",
    )
    landed = Message("debugger.landed", {"motion": step, "seq": 5})
    replay = landed.then(Message("debugger.into_needs_live", {"name": "price()"}))
    assert str(replay).startswith("step → event 5 · stepping into price() line by line needs live mode: a recording")
    assert replay.text("zh").startswith("单步 → 事件 5 · 逐行进入 price() 需要实时模式")


async def test_a_line_in_a_tool_the_live_run_does_not_rerun_stops_at_its_events(florist, tmp_path):
    recorded, _source, line_of = florist
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)  # Discount answers from it
    line = line_of('return "SPRING10"')
    app = debugger(None, live=run, breakpoints=[f"florist.py:{line}"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app))
        event = app.session.event()
        assert (event.kind, event.tool, run.line_stop) == ("tool_start", "Discount", None)
        assert "stopped at breakpoint #1" in said(app)
    app.session.store.close()


async def test_breakpoints_added_or_deleted_at_the_tool_start_count_for_its_call(florist, tmp_path):
    recorded, _source, line_of = florist
    later, earlier = line_of("total = each"), line_of("each = {")
    run = LiveRun("florist:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=["tool=price", f"florist.py:{later}"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        app.session.breakpoints.add(f"florist.py:{earlier}")  # set while the call waits to run
        await pilot.press("n")
        await settle(pilot, lambda: idle(app))
        assert run.line_stop is not None and run.line_stop.frame.line == earlier
        app.session.breakpoints.remove(2)  # the later line's: the rest of the call runs through
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.store.complete)
        assert "the run finished" in said(app)
    app.session.store.close()


@pytest.mark.parametrize(
    "kind,error_type,said,zh",
    [
        ("tool_end", None, "step out: price() is done → event 5 (tool_end)", "跳出：price() 已返回"),
        (
            "tool_error",
            "ToolInputError",
            "step out: price() never ran: its arguments did not fit → event 5 (tool_error)",
            "price() 没有运行",
        ),
        (
            "tool_error",
            "ValueError",
            "step out: price() raised ValueError → event 5 (tool_error)",
            "price() 抛出了 ValueError",
        ),
    ],
)
def test_leaving_the_function_says_how_the_call_ended(kind, error_type, said, zh):
    from types import SimpleNamespace

    from executor.events import ToolEndEvent, ToolErrorEvent
    from executor.events.base import CalleeRef, SourceRef
    from tracer.debug.stepping import Motion
    from tracer.tui.flows.into_function import left_function

    callee = CalleeRef(file="florist.py", line=8, function="price", qualname="price")
    where = SourceRef(file="executor/tools/tool.py", line=40, function="run")
    envelope = {
        "seq": 5,
        "run_id": "r",
        "t": 0.5,
        "iteration": 1,
        "frames": ("_call",),
        "source": where,
        "callee": callee,
    }
    event = (
        ToolEndEvent(tool="price", observation="12", **envelope)
        if kind == "tool_end"
        else ToolErrorEvent(tool="price", error_type=error_type, message="no", handled=True, **envelope)
    )
    session = SimpleNamespace(event=lambda: event, position=5)
    message = left_function(session, Motion.OUT)
    assert str(message) == said
    assert zh in message.text("zh")


def test_leaving_a_parallel_call_onto_another_calls_event_says_whose_it_is():
    from types import SimpleNamespace

    from executor.events import ToolStartEvent
    from executor.events.base import CalleeRef, SourceRef
    from tracer.debug.stepping import Motion
    from tracer.tui.flows.into_function import left_function

    where = SourceRef(file="executor/tools/tool.py", line=40, function="run")
    envelope = {"run_id": "r", "t": 0.5, "iteration": 1, "frames": ("perform_tool_calls",), "source": where}
    quote = CalleeRef(file="shop.py", line=8, function="quote", qualname="quote")
    count = CalleeRef(file="shop.py", line=20, function="count", qualname="count")
    stepped = ToolStartEvent(tool="quote", tool_input="{}", callee=quote, tool_call_id="c_quote", seq=6, **envelope)
    other = ToolStartEvent(tool="count", tool_input="{}", callee=count, tool_call_id="c_count", seq=7, **envelope)
    store = SimpleNamespace(run=SimpleNamespace(stepped_into=stepped))
    session = SimpleNamespace(event=lambda: other, position=7, store=store)
    message = left_function(session, Motion.OUT)
    assert (
        str(message) == "step out: quote() is done → event 7 (another call's tool_start; quote()'s own comes in turn)"
    )
    assert "另一个调用的 tool_start" in message.text("zh")


@pytest.fixture
def parallel(tmp_path, monkeypatch):
    """A tool-calling agent whose reply asks for quote() and count() at once, and its recording."""
    yield recorded_parallel(tmp_path, monkeypatch)
    sys.modules.pop("parallel", None)


async def test_s_at_a_parallel_calls_tool_start_follows_its_thread_and_r_returns_to_the_events(parallel, tmp_path):
    recorded, module, line_of = parallel
    run = LiveRun("parallel:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=["tool=quote"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.event().kind == "tool_start")
        start = app.session.event()
        assert start.tool == "quote" and start.tool_call_id == "c_quote"
        assert footer_label(app, "step-forward") == "step into quote()"
        await pilot.press("s")
        await settle(pilot, lambda: idle(app) and run.line_stop is not None)
        assert highlighted(app)[1] == line_of('RAN.append("quote")')
        assert "quote.py" not in status(app) and "not stepping into it" not in said(app)
        await pilot.press("s", "s")
        await settle(pilot, lambda: idle(app) and run.line_stop.frame.line == line_of("total = each"))
        assert "each" in pane_text(app, "variables-text") and "2.5" in pane_text(app, "variables-text")
        assert module.RAN == ["quote"], "count() waits at its tool_start while quote() is stepped"
        await pilot.press("r")
        await settle(pilot, lambda: idle(app) and run.line_stop is None)
        landed = app.session.event()
        if landed.tool_call_id == "c_quote":
            assert "quote() is done →" in said(app)
        else:  # count's turn came first in the recording
            assert f"quote() is done → event {landed.seq} (another call's {landed.kind}; quote()'s own" in (said(app))
            assert "另一个调用的" in said(app, "zh")
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.store.complete)
    app.session.store.close()
    assert not run.tracing and sys.gettrace() is None and _loop_thread_trace() is None
    assert sorted(module.RAN) == ["count", "quote"]


async def test_a_line_breakpoint_in_a_parallel_async_tool_stops_on_its_line(parallel, tmp_path):
    recorded, _module, line_of = parallel
    line = line_of("left = 40")
    run = LiveRun("parallel:build", tmp_path / "live.jsonl", fixture=recorded)
    app = debugger(None, live=run, breakpoints=[f"parallel.py:{line}"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await settle(pilot, lambda: idle(app))
        assert run.line_stop is not None and run.line_stop.frame.line == line
        assert f"stopped at breakpoint #1 line=parallel.py:{line} (hit 1) in count()" in said(app)
        await pilot.press("c")
        await settle(pilot, lambda: idle(app) and app.session.store.complete)
        assert "the run finished" in said(app)
    app.session.store.close()
    assert _loop_thread_trace() is None and not run.tracing
