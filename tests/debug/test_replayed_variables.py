"""The replay's Variables pane shows exactly the locals a live run has, at every event and every frame."""

from __future__ import annotations

import io
import re
import shutil

import pytest
from rich.console import Console

import tutorials
from tracer.debug.live_run import LiveRun
from tracer.debug.session import DebugSession, build_session
from tracer.tui.views.variables_view import variables_text

# loopscope's own recordings; a LangChain run's recording is checked to fall back instead (below).
# A scenario recorded from LangChain's own run has no run of loopscope's to re-execute.
# A scenario recorded from another framework's loop (four-loops' parts) has none either.
SCENARIOS = sorted(
    name for name, scenario in tutorials.SCENARIOS.items() if scenario.langchain_run is None and not scenario.framework
)
# A tool call's Future is "running" or "finished" at its tool_end depending on which thread got there
# first (the worker returns after handing the event over): the recording cannot say which, so only
# that it is a Future is compared.
_FUTURE_STATE = re.compile(r"<Future state=[^>]*>")


def _comparable(frame_locals) -> dict[str, str]:
    return {name: _FUTURE_STATE.sub("<Future>", value) for name, value in frame_locals}


def _rendered(session: DebugSession) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(variables_text(session))
    return console.export_text()


def _live_events(name: str) -> list:
    run = LiveRun(name, None)
    pulled = []
    while (item := run.pull()) is not None:
        pulled.append(item)
    return pulled


@pytest.mark.parametrize("name", SCENARIOS)
def test_replayed_frames_and_locals_equal_the_live_ones_at_every_event(name):
    live = _live_events(name)
    replay = build_session(tutorials.SCENARIOS[name].fixture, wait_for_locals=True)  # a script: locals when it asks
    assert len(replay) == len(live), "the live run and its recording have the same events"
    for position, (event, frames) in enumerate(live):
        replayed = replay.store.frames_at(position)
        assert replayed is not None, replay.store.reenactment.problem
        assert [f.function for f in replayed] == [f.function for f in frames], position
        assert replayed[0].function == "invoke" and event.frames[0] == "invoke"
        for live_frame, replay_frame in zip(frames, replayed):
            assert _comparable(replay_frame.locals) == _comparable(live_frame.locals), (position, live_frame.function)
            assert [n for n, _ in replay_frame.locals] == [n for n, _ in live_frame.locals]


def test_the_pane_shows_the_selected_frames_locals_and_u_d_change_it():
    replay = build_session(
        tutorials.SCENARIOS["rose-pricing"].fixture, wait_for_locals=True
    )  # a script: locals when it asks
    replay.goto(7)  # the first finish_check: the extend has not happened yet
    assert replay.event().kind == "finish_check"
    own = _rendered(replay)
    assert "▶ _call()" in own
    assert "intermediate_steps  []" in own.replace("    ", "") or "intermediate_steps []" in " ".join(own.split())
    assert "output [AgentStep(action=AgentAction(tool='Search'" in " ".join(own.split())
    assert replay.move_frame(1)
    caller = _rendered(replay)
    assert "▶ iter_events()" in caller and caller != own and "intermediate_steps" not in caller
    assert replay.move_frame(1) and "▶ invoke()" in _rendered(replay)
    assert not replay.move_frame(1), "invoke is the outermost frame: the user's call"


@pytest.mark.parametrize("name", ["rose-pricing", "tool-error-retried"])
def test_the_rendered_pane_is_the_same_live_and_replayed_at_every_frame(name, tmp_path):
    live = build_session(None, live=LiveRun(name, tmp_path / "live.jsonl"))
    while (item := live.store.run.pull()) is not None:
        live.store.append(*item)
    replay = build_session(tutorials.SCENARIOS[name].fixture, wait_for_locals=True)  # a script: locals when it asks
    for position in range(len(replay)):
        replay.goto(position), live.goto(position)
        for up in range(len(live.frames())):
            replay.frame_up = live.frame_up = up
            expected = _rendered(live).replace(
                "captured when this event was yielded",
                "of the run re-executed on the recorded replies, paused at this event",
            )
            assert _rendered(replay) == expected, (position, up)


def test_a_recording_that_no_longer_matches_the_source_falls_back_and_says_why(tmp_path):
    broken = tmp_path / "rose.jsonl"
    shutil.copy(tutorials.SCENARIOS["rose-pricing"].fixture, broken)
    lines = broken.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = lines[4].replace('"line":', '"line":1', 1)  # the recorded yield "moved"
    broken.write_text("".join(lines), encoding="utf-8")
    replay = build_session(broken, wait_for_locals=True)  # a script: locals when it asks
    replay.goto(7)
    text = " ".join(_rendered(replay).split())
    assert "differs from the recording at event 3" in text
    assert "intermediate_steps [0 AgentSteps]" in text and "output [AgentStep(" in text


def test_a_recording_made_by_langchain_says_why_it_has_no_real_locals():
    replay = build_session(
        tutorials.SCENARIOS["rose-pricing-langchain"].fixture, wait_for_locals=True
    )  # a script: locals when it asks
    replay.goto(3)
    assert replay.store.frames_at(3) is None
    text = " ".join(_rendered(replay).split())
    assert "the recording was made by other code" in text and "intermediate_steps" in text


def test_a_session_names_what_it_was_not_given_instead_of_failing_on_a_missing_path():
    with pytest.raises(TypeError, match="needs a trace file or a live run"):
        build_session(None)
    run = LiveRun("rose-pricing", None)  # re-enacting a recording: nothing written, so nothing to show
    with pytest.raises(ValueError, match="needs a run that writes its trace"):
        build_session(None, live=run)
    run.close()
