"""Every debugger key, driven through Pilot: the selected event, the highlighted source line and the panes."""

from __future__ import annotations

from functools import partial

import pytest

from tests.helpers import pilot_helpers
from tests.helpers.pilot_helpers import (
    active_tab,
    answer,
    debugger,
    highlighted,
    pane_text,
    settle,
    status,
)
from tracer.debug.session import build_session
from tracer.tui.app import DebuggerApp
from tracer.tui.keymap import parse_keymap
from tracer.tui.panes.breakpoints_pane import BreakpointsPane
from tracer.tui.panes.call_stack import CallStackPane
from tracer.tui.panes.prompt_pane import PromptPane
from tracer.tui.panes.source_view import SourceView
from tracer.tui.panes.timeline import EventTimeline
from tracer.tui.screens.ask_screen import AskScreen
from tracer.tui.screens.help_screen import HelpScreen, key_label, key_words
from tracer.tui.screens.main_screen import DebuggerScreen

SIZE = (120, 40)
press = partial(pilot_helpers.press, wait_for_search=True)  # a key here may start a search: wait for its answer


def at(app) -> int:
    return app.session.position


@pytest.mark.parametrize(
    "start, keys, expected, source",
    [
        (0, "s", 1, ("executor/models/chat_model.py", "llm_start")),
        (5, "S", 4, ("executor/tools/tool.py", "tool_start")),
        (3, "n", 6, ("executor/agent_executor.py", "step")),
        (11, "n", 15, ("executor/tools/tool.py", "tool_end")),
        (15, "N", 11, ("executor/tools/tool.py", "tool_start")),
        (12, "r", 14, ("executor/tools/calculator.py", "calculator_eval")),
        (14, "R", 11, ("executor/tools/tool.py", "tool_start")),
        (4, "c", 22, ("executor/agent_executor.py", "chain_end")),
        (20, "C", 0, ("executor/agent_executor.py", "chain_start")),
        (9, "g", 0, ("executor/agent_executor.py", "chain_start")),
        (9, "G", 22, ("executor/agent_executor.py", "chain_end")),
    ],
)
async def test_motion_keys_select_the_event_and_highlight_its_line(rose, start, keys, expected, source):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(start)
        await press(pilot, *keys)
        assert at(app) == expected
        event = app.session.event()
        assert (event.kind, highlighted(app)) == (source[1], (source[0], event.source.line))
        assert f"event {expected} of 23" in status(app)


async def test_timeline_marks_the_current_event_and_scrolls_with_it(rose):
    app = debugger(rose)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "G")
        timeline = app.screen.query_one(EventTimeline)
        rows = [timeline.render_line(y).text for y in range(timeline.scrollable_content_region.height)]
        current = [row for row in rows if row.startswith("▶")]
        assert len(current) == 1 and "22" in current[0] and "chain_end" in current[0]


async def test_goto_event_number_checks_the_answer(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "colon")
        await answer(pilot, "99")
        assert isinstance(app.screen, AskScreen)
        assert "from 0 to 22" in str(app.screen.query_one("#ask-hint").render())
        await press(pilot, "backspace", "backspace", "1", "2", "enter")
        assert isinstance(app.screen, DebuggerScreen)
        assert at(app) == 12 and highlighted(app)[0] == "executor/models/chat_model.py"


async def test_escape_closes_a_question_without_moving(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "colon", "5", "escape")
        assert isinstance(app.screen, DebuggerScreen) and at(app) == 0


async def test_search_finds_text_in_values_and_repeats_both_ways(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "slash")
        await answer(pilot, "26.25")
        assert at(app) == 14  # numexpr's result
        await press(pilot, "right_square_bracket")
        assert at(app) == 15  # the observation "Answer: 26.25"
        await press(pilot, "left_square_bracket")
        assert at(app) == 14
        await press(pilot, "slash")
        await answer(pilot, "nowhere to be found")
        assert at(app) == 14 and "no event contains 'nowhere to be found'" in status(app)


async def test_search_runs_off_the_ui_thread(rose):
    import threading

    app = debugger(rose)
    threads = []
    real_search = app.session.search

    def watched_search(*args, **kwargs):
        threads.append(threading.current_thread())
        return real_search(*args, **kwargs)

    app.session.search = watched_search
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "slash")
        await answer(pilot, "26.25")
        assert at(app) == 14
        assert threads and threads[0] is not threading.main_thread()


async def test_search_is_smart_case(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "slash")
        await answer(pilot, "know the final answer.")
        assert at(app) == 19  # lower case matches "I now know the final answer."
        app.session.goto(0)
        await press(pilot, "slash")
        await answer(pilot, "KNOW THE FINAL ANSWER.")
        assert at(app) == 0 and "no event contains" in status(app)  # capitals: exact


async def test_b_toggles_a_line_breakpoint_shown_in_timeline_source_and_list(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(7)  # a finish_check
        await press(pilot, "b")
        [bp] = list(app.session.breakpoints)
        line = app.session.event().source.line
        assert bp.spec == f"line=executor/agent_executor.py:{line}"
        timeline = app.screen.query_one(EventTimeline)
        marked = [y for y in range(23) if timeline.render_line(y).text[0] == "●"]
        assert marked == [17, 21]  # every event from that line; the current one's ▶ turns red
        here = next(segment for segment in timeline.render_line(7) if segment.text == "▶")
        assert here.style is not None and here.style.color is not None and here.style.color.name == "red"
        await press(pilot, "4")
        assert "hits 0" in str(app.screen.query_one(BreakpointsPane).render())
        await press(pilot, "g", "c")
        assert at(app) == 7 and "stopped at breakpoint #1" in status(app)
        app.session.goto(17)
        await press(pilot, "b")
        assert len(app.session.breakpoints) == 0


async def test_b_in_the_focused_source_pane_uses_the_cursor_line(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(3)
        await press(pilot, "s")  # refresh the panes at event 4
        app.screen.query_one("#source").focus()
        await press(pilot, "up", "up", "b")
        [bp] = list(app.session.breakpoints)
        assert bp.value == ("executor/tools/tool.py", app.session.event().source.line - 2)


async def test_B_adds_any_breakpoint_and_rejects_a_bad_one(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "B")
        await answer(pilot, "tool=Nope if iteration >=")
        assert isinstance(app.screen, AskScreen)
        assert "bad condition" in str(app.screen.query_one("#ask-hint").render())
        app.screen.query_one("#ask-input").value = 'if "25" in tool_input'
        await press(pilot, "enter")
        await press(pilot, "c")
        assert at(app) == 10 and app.session.event().kind == "agent_action"


async def test_u_and_d_walk_the_call_stack_and_the_source_follows(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(11)
        await press(pilot, "s")  # event 12: call_model inside the calculator
        assert highlighted(app)[0] == "executor/models/chat_model.py"
        await press(pilot, "u")
        assert highlighted(app)[0] == "executor/tools/calculator.py"
        assert "▶ calculate" in app.screen.query_one(CallStackPane).plain
        await press(pilot, "u", "u")
        file, line = highlighted(app)
        assert file == "executor/agent_executor.py"
        assert app.session.selected_frame().function == "_perform_agent_action"
        assert "tool.run" in app.screen.query_one("#source").source.lines[line - 1]  # where it waits
        await press(pilot, "d", "d", "d", "d", "d")
        assert highlighted(app)[0] == "executor/models/chat_model.py" and "already at the event's frame" in status(app)


async def test_number_keys_switch_panes_and_fill_them(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(9)
        await press(pilot, "s")  # event 10, the Calculator action
        await press(pilot, "1")
        assert active_tab(app) == "variables"
        text = pane_text(app, "variables-text")
        assert "AgentAction(tool='Calculator', tool_input='25 * 1.05'" in text
        assert "▶ _iter_next_step()" in text and "intermediate_steps" in text
        await press(pilot, "2")
        assert active_tab(app) == "prompt" and "plan() call #2" in app.screen.query_one(PromptPane).header
        await press(pilot, "3")
        assert active_tab(app) == "detail" and "tool_input    '25 * 1.05'" in pane_text(app, "detail-text")
        await press(pilot, "4")
        assert active_tab(app) == "breakpoints"
        await press(pilot, "5")
        assert active_tab(app) == "breakpoints"  # no narration pane outside tutorials


async def test_help_lists_every_key_and_closes(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.plain
        for binding in [*DebuggerScreen.BINDINGS, *BreakpointsPane.BINDINGS[2:], *type(app).BINDINGS]:
            line = f"  {key_label(binding.key):<12}{key_words(binding, 'en')}"
            assert line in shown.splitlines(), line
        assert "run until the current frame has returned" in shown and "Nothing is ever evaluated as Python" in shown
        await press(pilot, "escape")
        assert isinstance(app.screen, DebuggerScreen)


async def test_q_quits_with_exit_code_zero(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "q")
    assert app.return_code == 0


async def test_arrow_keys_and_clicks_in_the_timeline_pick_events(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one(EventTimeline).focus()
        await press(pilot, "down", "down", "down")
        assert at(app) == 3
        await press(pilot, "up")
        assert at(app) == 2
        await pilot.click(EventTimeline, offset=(10, 9))  # row 8 inside the border
        await settle(pilot)
        assert at(app) == 8


async def test_breakpoints_pane_keys_edit_the_selected_breakpoint(rose):
    app = debugger(rose, breakpoints=["finish_check", "tool=Calculator"])
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "4")
        app.screen.query_one(BreakpointsPane).focus()
        await press(pilot, "e")
        first, _second = list(app.session.breakpoints)
        assert not first.enabled
        await press(pilot, "plus", "plus", "minus")
        assert first.ignore == 1
        await press(pilot, "t")
        assert first.temporary
        await press(pilot, "down", "x")
        assert list(app.session.breakpoints) == [first]
        assert "temporary" in str(app.screen.query_one(BreakpointsPane).render())


def test_every_binding_has_an_id_and_no_two_share_one():
    from tracer.tui.screens import (
        ask_screen,
        diff_screen,
        fork_screen,
        help_screen,
        tutorial_picker,
    )

    owners = [
        DebuggerScreen,
        BreakpointsPane,
        SourceView,
        EventTimeline,
        DebuggerApp,
        ask_screen.AskScreen,
        diff_screen.DiffScreen,
        fork_screen.ForkScreen,
        help_screen.HelpScreen,
        tutorial_picker.TutorialPicker,
    ]
    ids = [binding.id for owner in owners for binding in owner.BINDINGS]
    assert all(ids) and len(ids) == len(set(ids))


async def test_a_keymap_rebinds_a_key_by_its_id(rose):
    app = DebuggerApp(build_session(rose), keymap=parse_keymap("step-forward=j;help=h"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "j", "j")
        assert app.session.position == 2
        await press(pilot, "h")
        assert isinstance(app.screen, HelpScreen)
        assert "  j           step: to the next event" in app.screen.plain


def test_a_keymap_naming_no_binding_is_a_one_line_error():
    with pytest.raises(ValueError, match="no key has the id 'stepp'; ids: "):
        parse_keymap("stepp=j")
    with pytest.raises(ValueError, match="ID=KEY"):
        parse_keymap("step-forward")
