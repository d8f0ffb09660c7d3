"""At a framework's model call (llm_start, llm_end) the call stack ends at the framework's frame that asked the model,
its locals holding the messages sent, live and in a recording re-run with --agent; loopscope's frames never show."""

from __future__ import annotations

import sys

import pytest

from tests.debug.live_framework_agents import FRAMEWORKS, QUESTION, cli_live_run, module_name, write_project
from tests.helpers.cli_run import loopscope
from tracer.debug.framework_frames import is_run_file
from tracer.debug.live_run import FrameSnapshot
from tracer.debug.options import DebuggerOptions
from tracer.debug.session import DebugSession, build_session
from tracer.debug.stack_locals import stack_locals
from tracer.debug.step_into import LineStop

# The local each framework's asking frame sends the conversation in: LangGraph's model node and pydantic-ai's
# model_request hand the model `messages`, the Agents SDK's get_new_response its `input`.
SENT = {"langgraph": "messages", "openai_agents": "input", "pydantic_ai": "messages"}
MODEL_EVENTS = ("llm_start", "llm_end")


def check_asking_frame(framework: str, frames: tuple[FrameSnapshot, ...], kind: str) -> None:
    assert frames, kind
    assert not [f.file for f in frames if f.file.startswith("tracer/")], kind  # none of loopscope's frames
    innermost = dict(frames[-1].locals)
    assert QUESTION in innermost.get(SENT[framework], ""), (kind, frames[-1].function, list(innermost))
    assert "LoopscopeModel.get_response" not in " ".join(innermost.values())  # not the SDK's retry frame


def check_panes(session: DebugSession, framework: str) -> None:
    """The call stack pane ends where Variables is, at the asking frame with its locals."""
    shown, snapshot = stack_locals(session)[-1]
    assert snapshot is not None and shown.function == snapshot.function, (shown, snapshot)
    assert QUESTION in dict(snapshot.locals)[SENT[framework]]
    assert shown.file is not None and not shown.file.startswith(("(", "tracer/"))


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_live_a_model_calls_frames_end_at_the_frame_that_asked_the_model(framework, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, _ = cli_live_run(tmp_path, framework)
    session = build_session(None, live=run)
    seen = []
    try:
        while (got := run.pull()) is not None:
            assert not isinstance(got, LineStop)
            session.store.append(*got)
            session.position = len(session.store) - 1
            event, frames = got
            if event.kind in MODEL_EVENTS:
                check_asking_frame(framework, frames, event.kind)
                check_panes(session, framework)
                seen.append(event.kind)
    finally:
        run.close()
        sys.modules.pop(module_name(framework), None)
    assert str(run.outcome) == "the run finished" and seen == ["llm_start", "llm_end"] * 2


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_recording_re_run_with_agent_shows_the_frame_that_asked_the_model(framework, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec, _, replies = write_project(tmp_path, framework)
    code, _, err = loopscope(capsys, "record", spec, "--input", QUESTION, "--replies", replies.name, "-o", "r.jsonl")
    assert code == 0, err
    session = build_session("r.jsonl", options=DebuggerOptions(agents=(spec,)), wait_for_locals=True)
    store = session.store
    try:
        models = [i for i in range(len(store)) if store.event(i).kind in MODEL_EVENTS]
        assert len(models) == 4
        for position in models:
            frames = store.frames_at(position)
            assert frames is not None, store.reenactment.problem
            check_asking_frame(framework, frames, store.event(position).kind)
            session.position = position
            check_panes(session, framework)
    finally:
        store.reenactment.close()
        sys.modules.pop(module_name(framework), None)


SITE = "/home/me/.venv/lib/python3.12/site-packages"


@pytest.mark.parametrize(
    ("file", "the_runs"),
    [
        (f"{SITE}/tracer/bridges/openai_agents_agent.py", False),  # loopscope installed with pip: still ours
        (f"{SITE}/agents/run_internal/run_loop.py", True),
        ("/usr/lib/python3.12/asyncio/tasks.py", False),
        ("/usr/lib/python3.12/site-packages/pydantic_ai/_agent_graph.py", True),  # the system Python's
        (f"{SITE}/langchain_core/callbacks/manager.py", False),
        ("/home/me/app/my_app.py", True),
    ],
)
def test_a_frame_belongs_to_the_run_by_its_file_wherever_loopscope_is_installed(file, the_runs):
    assert is_run_file(file, ours=f"{SITE}/tracer", stdlib="/usr/lib/python3.12") is the_runs
