"""Fork from the current event (f), diff with the parent or another trace (D), and the tutorial picker (T)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import OptionList, TextArea

from tests.helpers.pilot_helpers import active_tab, answer, debugger, pane_text, press, said, settle, status
from tests.helpers.trace_factory import record, with_search_result
from tracer.debug.live_run import LiveRun
from tracer.replay.fork import ForkError, fork_trace
from tracer.report.diff import diff_traces
from tracer.trace.reader import TraceFile, TraceFormatError
from tracer.tui.flows import forking as fork_actions
from tracer.tui.flows.forking import first_line_of, fork_destination
from tracer.tui.screens.ask_screen import AskScreen
from tracer.tui.screens.diff_screen import DiffScreen
from tracer.tui.screens.fork_screen import ForkScreen
from tracer.tui.screens.main_screen import DebuggerScreen
from tracer.tui.screens.tutorial_picker import TutorialPicker
from tracer.tui.views.narration_view import narration_text
from tutorials.narration import tutorial_stops
from tutorials.registry import TUTORIALS, Tutorial
from tutorials.rose_pricing import REPLIES

SIZE = (120, 40)
FINAL = " I can answer now.\nFinal Answer: about 31.5 yuan"
CALC_FIRST = " Just arithmetic.\nAction: Calculator\nAction Input: 2 + 2"


async def fork_with(pilot, app, text: str) -> None:
    """Type `text` into the open fork box, submit, and wait for the fork to be on screen."""
    original = app.session
    app.screen.query_one(TextArea).text = text
    await press(pilot, "ctrl+s")
    await settle(
        pilot,
        lambda: (
            app.session is not original and isinstance(app.screen, DebuggerScreen) and app.screen.session is app.session
        ),
    )


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Forks land in the working directory, as `loopscope fork` writes them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- fork -----------------------------------------------------------------------------------
async def test_a_reply_fork_opens_the_fork_at_the_changed_reply(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(2)  # the first plan's llm_end
        await press(pilot, "f")
        assert isinstance(app.screen, ForkScreen)
        recorded = app.session.event(2).text
        assert app.screen.query_one(TextArea).text == recorded
        await fork_with(pilot, app, FINAL)
        header = app.session.store.header
        assert header.parent == str(rose.resolve()) and header.fork_at == 2
        assert header.fork == {"reply": FINAL}
        # The new reply finishes at once: chain_start, plan, llm_end, agent_finish, finish_check, chain_end.
        assert len(app.session) == 6 and app.session.position == 2
        assert "event 2 of 6" in status(app)
        assert active_tab(app) == "detail" and "Final Answer: about 31.5 yuan" in pane_text(app, "detail-text")
        assert "rose_pricing.fork-2.jsonl" in status(app) and "new reply at event 2 (llm_end)" in status(app)
        assert (here / "rose_pricing.fork-2.jsonl").exists()
        assert "fork at event 2" in str(app.screen.query_one("#timeline").border_title)
        await press(pilot, "D")  # one key from the fork to its diff with the parent
        assert isinstance(app.screen, DiffScreen)
        shown = app.screen.plain
        assert "The runs part at transition 1 (A event 1, B event 1):" in shown
        assert "+Final Answer: about 31.5 yuan" in shown and "B finished: about 31.5 yuan" in shown
    app.session.store.close()
    app.close_opened()


async def test_an_observation_fork_from_tool_start_feeds_the_next_prompt(rose, here):
    app = debugger(rose, breakpoints=["tool=Calculator"])
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(4)  # tool_start of Search: the box holds the observation of its tool_end
        await press(pilot, "f")
        assert app.screen.query_one(TextArea).text == app.session.event(5).observation
        await fork_with(pilot, app, "Roses cost 40 yuan a bunch.")
        assert app.session.store.header.fork_at == 4 and app.session.position == 5
        assert app.session.event().kind == "tool_end"
        # The fork opens as a new session: its panes fill in with its first frame.
        await settle(pilot, lambda: "observation   " in pane_text(app, "detail-text"))
        assert "observation   'Roses cost 40 yuan a bunch.'" in pane_text(app, "detail-text")
        await press(pilot, "colon", "8", "enter", "2")  # the next plan call, in the prompt pane
        assert "Observation: Roses cost 40 yuan a bunch." in pane_text(app, "prompt-text")
        assert "event 8 of 23" in status(app)
        assert [bp.spec for bp in app.session.breakpoints] == ["tool=Calculator"]  # carried into the fork
        await press(pilot, "c")
        assert app.session.position == 11 and app.session.event().kind == "tool_start"  # where Calculator runs
    app.session.store.close()
    app.close_opened()


async def test_typing_in_the_fork_box_does_not_trigger_debugger_keys(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(2)
        await press(pilot, "f")
        box = app.screen.query_one(TextArea)
        box.text = ""
        await press(pilot, "q", "s", "n", "D")
        assert isinstance(app.screen, ForkScreen) and box.text == "qsnD" and app.return_code is None


async def test_f_on_an_event_that_cannot_be_forked_names_the_kinds_that_can(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(3)  # agent_action
        await press(pilot, "f")
        assert isinstance(app.screen, DebuggerScreen)
        assert "agent_action · planning │ f forks llm_start/llm_end" in status(app)
        assert "tool_start/tool_end/tool_error" in said(app)
        assert list(here.glob("*.fork-*")) == []


async def test_escape_cancels_and_an_unchanged_text_is_refused(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)
        await press(pilot, "f", "ctrl+s")
        assert isinstance(app.screen, ForkScreen)
        assert "unchanged" in str(app.screen.query_one("#fork-hint").render())
        await press(pilot, "escape")
        assert isinstance(app.screen, DebuggerScreen) and app.session.position == 5
        assert "fork cancelled" in status(app) and list(here.glob("*.fork-*")) == []


async def test_a_fork_the_recording_cannot_finish_opens_and_says_why_in_one_line(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(2)
        await press(pilot, "f")
        await fork_with(pilot, app, CALC_FIRST)  # the calculator was never asked about 2 + 2
        message = said(app)
        assert "the fork stopped early: RecordingExhausted: the fork needs a model reply" in message
        assert "\n" not in message and app.session.event(len(app.session) - 1).kind == "chain_error"
    app.session.store.close()
    app.close_opened()


async def test_a_fork_that_fails_leaves_the_trace_open_with_a_one_line_reason(invalid_tool, here):
    app = debugger(invalid_tool)  # recorded by the tests under a scenario name no registry knows
    async with app.run_test(size=SIZE) as pilot:
        original = app.session
        app.session.goto(2)
        await press(pilot, "f")
        app.screen.query_one(TextArea).text = FINAL
        await press(pilot, "ctrl+s")
        await settle(pilot, lambda: not app.screen.busy)
        assert app.session is original and isinstance(app.screen, DebuggerScreen)
        assert said(app).startswith("fork failed: ") and "\n" not in said(app)
        assert "'test'" in said(app)


async def test_a_second_fork_at_the_same_event_gets_its_own_file(rose, here):
    first = fork_trace(rose, 2, reply=FINAL, output=here / "rose_pricing.fork-2.jsonl")
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(2)
        await press(pilot, "f")
        await fork_with(pilot, app, FINAL.replace("31.5", "32"))
        assert app.session.store.path == here / "rose_pricing.fork-2-2.jsonl"
        with TraceFile(first.path) as untouched:
            assert untouched.header.fork == {"reply": FINAL}
    app.session.store.close()
    app.close_opened()


async def test_forking_a_live_run_asks_for_a_recorded_trace(tmp_path):
    app = debugger(None, live=LiveRun("rose-pricing", tmp_path / "live.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f")
        assert isinstance(app.screen, DebuggerScreen)
        assert "forking needs a recorded trace" in status(app)
    app.session.store.close()


# -- diff -----------------------------------------------------------------------------------
async def test_without_a_parent_D_asks_for_a_trace_and_checks_it(rose, invalid_tool, tmp_path):
    expected = diff_traces(invalid_tool, rose)
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "D")
        assert isinstance(app.screen, AskScreen)
        await answer(pilot, "nope.jsonl")
        assert isinstance(app.screen, AskScreen)
        assert "nope.jsonl: no such file" in str(app.screen.query_one("#ask-hint").render())
        app.screen.query_one("#ask-input").value = str(invalid_tool)
        await press(pilot, "enter")
        assert isinstance(app.screen, DiffScreen)
        shown = app.screen.plain
        assert f"The runs part at transition {expected.parted_at}" in shown
        assert "invalid_tool(Calculater)" in shown  # the row only the other run has
        await press(pilot, "escape")
        assert isinstance(app.screen, DebuggerScreen) and "they part at transition" in status(app)


async def test_a_fork_whose_parent_is_gone_asks_for_it(rose, tmp_path):
    fork = fork_trace(rose, 2, reply=FINAL, output=tmp_path / "fork.jsonl").path
    rose.unlink()
    app = debugger(fork)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "D")
        assert isinstance(app.screen, AskScreen)
        assert "named in this fork's header is not there" in str(app.screen.query_one("#ask-hint").render())


# -- tutorial picker ------------------------------------------------------------------------
def option_texts(app) -> list[str]:
    """Each option of the picker as the reader sees it (wide enough not to wrap)."""
    console = Console(width=200, record=True)
    texts = []
    for option in app.screen.query_one(OptionList).options:
        console.print(option.prompt)
        texts.append(console.export_text())
    return texts


async def test_the_picker_lists_every_tutorial_and_opens_the_first_stop(rose):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "T")
        assert isinstance(app.screen, TutorialPicker)
        shown = "\n".join(option_texts(app))
        for name, tutorial in TUTORIALS.items():
            count = len(tutorial.parts)
            assert f"{name}  · {count} part{'s' * (count != 1)}" in shown and tutorial.title("en") in shown
        await press(pilot, "down", "enter")  # invalid-tool
        stops = app.session.stops
        assert app.session.store.path == TUTORIALS["invalid-tool"].parts[0].fixture
        assert app.session.position == stops[0].seq and active_tab(app) == "narration"
        assert f"Stop 1/{len(stops)} · {stops[0].title}" in pane_text(app, "narration-text")
        await press(pilot, "space")
        assert app.session.position == stops[1].seq
    app.close_opened()


async def test_a_part_of_a_multi_part_tutorial_opens_in_the_language_of_the_session(rose):
    with TraceFile(rose) as trace:
        stops = tutorial_stops("rose-pricing", "zh", list(trace))
    app = debugger(rose, stops=stops)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "T")
        assert "中文" in str(app.screen.query_one("#picker-title").render())
        ids = [option.id for option in app.screen.query_one(OptionList).options]
        app.screen.query_one(OptionList).highlighted = ids.index("tool-error:1")
        await press(pilot, "enter")
        tutorial = TUTORIALS["tool-error"]
        with TraceFile(tutorial.parts[1].fixture) as trace:
            first = tutorial_stops("tool-error-handled", "zh", list(trace))[0]
        assert app.session.store.path == tutorial.parts[1].fixture
        assert first.title in narration_text(app.session, "zh").plain
        assert "第 2/3 部分" in status(app) and "按 T 换一个部分" in status(app)  # said in the session's language
        assert "第 2/3 部分" in app.session.title
        await press(pilot, "T")  # the picker starts on the part that is open
        choices = app.screen.query_one(OptionList)
        assert choices.options[choices.highlighted].id == "tool-error:1"
    app.close_opened()


async def test_a_tutorial_without_its_recording_is_a_one_line_message(rose, tmp_path, monkeypatch):
    part = dataclasses.replace(TUTORIALS["invalid-tool"].parts[0], fixture_name=str(tmp_path / "gone.jsonl"))
    monkeypatch.setitem(TUTORIALS, "invalid-tool", Tutorial.of("invalid-tool", (part,)))
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "T", "down", "enter")
        assert isinstance(app.screen, DebuggerScreen) and app.session.store.path == rose
        assert "cannot open tutorial invalid-tool: no recording at" in status(app)
        assert "loopscope record invalid-tool" in said(app)


# -- untrusted text and where forks go ------------------------------------------------------
async def test_model_text_enters_the_fork_box_with_its_escapes_made_visible(tmp_path):
    hostile = "\x1b]0;evil title\x07[bold red]pwned[/] \x1b[2J"
    path = record(tmp_path / "hostile.jsonl", REPLIES, build_tools=with_search_result(hostile))
    app = debugger(path)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)  # Search's tool_end
        await press(pilot, "f")
        assert app.screen.query_one(TextArea).text == "␛]0;evil title\\x07[bold red]pwned[/] ␛[2J"
        assert "visible stand-ins" in str(app.screen.query_one("#fork-hint").render())


def test_forks_go_to_a_temporary_directory_when_the_working_one_is_read_only(tmp_path, monkeypatch):
    monkeypatch.setattr(fork_actions.os, "access", lambda path, mode: Path(path) != tmp_path)
    path = fork_destination(Path("fixtures/rose_pricing.jsonl"), 7, tmp_path)
    assert path.name == "rose_pricing.fork-7.jsonl" and path.parent != tmp_path and path.parent.is_dir()


def test_our_errors_read_as_their_first_line_and_others_keep_their_type():
    assert first_line_of(ForkError("event 3 is no model call\nmore detail")) == "event 3 is no model call"
    assert first_line_of(TraceFormatError("t.jsonl", 2, "cut off")) == "t.jsonl:2: cut off"
    assert first_line_of(LookupError("no recording at x.jsonl")) == "no recording at x.jsonl"
    assert first_line_of(ValueError("bad value\nmore")) == "ValueError: bad value"
    assert first_line_of(OSError()) == "OSError"


async def test_the_fork_box_says_what_answers_a_changed_prompt_and_the_fork_says_what_happened(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)  # Search's tool_end: the next plan prompts will hold the new observation
        await press(pilot, "f")
        after = str(app.screen.query_one("#fork-after").render())
        assert "gets the reply recorded for the old prompt" in after and "ctrl+t: stop there instead" in after
        await fork_with(pilot, app, "Roses cost 40 yuan a bunch.")
        message = said(app)
        assert "warning, stale: model calls #2 (event 8), #4 (event 18) got replies recorded for other prompts" in (
            message
        ), message
        assert app.session.store.header.after_fork == "recording"
    app.session.store.close()
    app.close_opened()


async def test_ctrl_t_in_the_fork_box_stops_the_fork_at_the_first_changed_prompt(rose, here):
    app = debugger(rose)
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)
        await press(pilot, "f", "ctrl+t")
        after = str(app.screen.query_one("#fork-after").render())
        assert "ends the fork there" in after and "ctrl+t: answer from the recording instead" in after
        await fork_with(pilot, app, "Roses cost 40 yuan a bunch.")
        assert "stopped at model call #2 (event 8): its prompt changed" in said(app)
        events = [app.session.event(p) for p in range(len(app.session))]
        assert [e.kind for e in events[-2:]] == ["llm_start", "chain_error"]
        assert "Observation: Roses cost 40 yuan a bunch." in events[-2].prompt
        assert app.session.store.header.after_fork == "stop"
    app.session.store.close()
    app.close_opened()


async def test_with_a_model_given_the_fork_box_offers_to_ask_it(rose, here):
    app = debugger(rose, model="openai:gpt-4o-mini")
    async with app.run_test(size=SIZE) as pilot:
        app.session.goto(5)
        await press(pilot, "f")
        assert "ask openai:gpt-4o-mini" in str(app.screen.query_one("#fork-after").render())
        await press(pilot, "ctrl+t", "ctrl+t")
        assert "goes to the live model openai:gpt-4o-mini" in str(app.screen.query_one("#fork-after").render())
