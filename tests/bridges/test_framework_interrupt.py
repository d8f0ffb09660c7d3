"""A framework agent's run that is stopped part-way: by Ctrl-C during `record` (a real SIGINT to the real
command), by quitting `debug --live`, by quitting `debug --agent` before its re-run is done. What is kept is
what loopscope keeps for its own agents, and nothing else is left in the user's folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.debug.live_framework_agents import FRAMEWORKS, QUESTION, cli_live_run, write_project
from tests.helpers.cli_run import loopscope
from tracer.trace.reader import load_trace

pytestmark = pytest.mark.slow  # the Ctrl-C cases start a process each

# The tool hangs for good once it has said so: only an exit that does not wait for its thread ends the process.
HANG = 'print("hanging", flush=True)\n    __import__("threading").Event().wait()\n    forecast = FORECASTS[city]'
OLD = '{"an": "earlier trace, which Ctrl-C must leave as it was"}\n'


def hanging_project(folder: Path, framework: str) -> tuple[str, Path]:
    spec, source, replies = write_project(folder, framework)
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("forecast = FORECASTS[city]", HANG, 1), encoding="utf-8")
    return spec, replies


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_ctrl_c_while_a_tool_hangs_exits_at_once_and_keeps_the_run_as_interrupted(tmp_path, framework):
    spec, replies = hanging_project(tmp_path, framework)
    (tmp_path / "run.jsonl").write_text(OLD, encoding="utf-8")
    argv = ["record", spec, "--input", QUESTION, "--replies", replies.name, "-o", "run.jsonl"]
    process = subprocess.Popen(
        [sys.executable, "-m", "tracer.cli", *argv],
        cwd=tmp_path,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "hanging"
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=3 if framework == "langgraph" else 30)  # before the fix: never
        except subprocess.TimeoutExpired:
            # LangChain's ToolNode waits for its tool threads on the way out (its executor's `with`), for ever
            # with this tool: the second Ctrl-C ends that wait, as it does for any Python program.
            assert framework == "langgraph"
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, err
    kept = "run.jsonl.interrupted"
    assert err.strip().splitlines() == [
        f"loopscope: interrupted; run.jsonl was left as it was; the partial run is in {kept}"
    ]
    assert (tmp_path / "run.jsonl").read_text(encoding="utf-8") == OLD
    assert not list(tmp_path.glob("*.partial"))
    _, events, warning = load_trace(tmp_path / kept)
    starts = [e for e in events if e.kind == "tool_start"]
    assert [e.tool for e in starts] == ["get_weather"] and "interrupted" in warning
    assert not [e for e in events if e.kind == "chain_end"]


def test_ctrl_c_during_verify_names_no_file_that_is_gone(capsys, tmp_path, monkeypatch):
    """verify re-runs the agent in a folder of its own, removed at the end: Ctrl-C there keeps nothing to name."""
    monkeypatch.chdir(tmp_path)
    spec, source, replies = write_project(tmp_path, "pydantic_ai")
    code, _, err = loopscope(capsys, "record", spec, "--input", QUESTION, "--replies", replies.name, "-o", "run.jsonl")
    assert code == 0, err
    hang_when_asked = HANG.replace('print("hanging"', 'import os\n    os.environ.get("HANG") and print("hanging"')
    hang_when_asked = hang_when_asked.replace("__import__", 'os.environ.get("HANG") and __import__')
    source.write_text(source.read_text().replace("forecast = FORECASTS[city]", hang_when_asked, 1))
    process = subprocess.Popen(
        [sys.executable, "-m", "tracer.cli", "verify", "run.jsonl", "--agent", spec],
        cwd=tmp_path,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "HANG": "1"},
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "hanging"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130 and err.strip().splitlines() == ["loopscope: interrupted"], err


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_quitting_debug_live_part_way_writes_the_events_so_far(tmp_path, monkeypatch, framework):
    monkeypatch.chdir(tmp_path)
    run, _ = cli_live_run(tmp_path, framework)
    try:
        pulled = [run.pull() for _ in range(3)]
    finally:
        run.close()
    kinds = [got[0].kind for got in pulled if isinstance(got, tuple)]
    assert kinds[0] == "chain_start" and len(kinds) == 3
    _, events, _ = load_trace(tmp_path / "live.jsonl")  # before the fix: no live.jsonl, a .partial instead
    assert [e.kind for e in events][:3] == kinds
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("how_far", ["part-way", "to the end"])
def test_debug_agent_leaves_nothing_beside_the_recording(capsys, tmp_path, monkeypatch, framework, how_far):
    from tracer.debug.event_store import ReplayStore
    from tracer.trace.reader import TraceFile

    monkeypatch.chdir(tmp_path)
    spec, _, replies = write_project(tmp_path, framework)
    code, _, err = loopscope(capsys, "record", spec, "--input", QUESTION, "--replies", replies.name, "-o", "run.jsonl")
    assert code == 0, err
    before = sorted(p.name for p in tmp_path.iterdir())
    store = ReplayStore(TraceFile(tmp_path / "run.jsonl"), [spec])
    try:
        last = len(store) - 1 if how_far == "to the end" else 2
        assert store.reenactment.frames_at(last) is not None, store.reenactment.problem
    finally:
        store.reenactment.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == [
        p for p in before if p != "__pycache__"
    ]
    assert json.loads((tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])["framework"]


def test_ctrl_c_in_your_own_langchain_run_keeps_it_as_interrupted_and_says_where(tmp_path):
    """LangChain tells the handler of Ctrl-C as the run's chain_error; it is not the run's end: the file named
    is left as it was (it was replaced by a 'finished' run ending in KeyboardInterrupt)."""
    from tests.helpers.langchain_rose import rose_executor, rose_inputs
    from tracer import LoopscopeCallbackHandler

    def ctrl_c(query: str) -> str:
        raise KeyboardInterrupt  # as if pressed while the search ran

    path = tmp_path / "run.jsonl"
    path.write_text(OLD, encoding="utf-8")
    executor = rose_executor()
    executor.tools[0].func = ctrl_c
    with pytest.raises(KeyboardInterrupt), LoopscopeCallbackHandler(path) as handler:
        executor.invoke(rose_inputs(), {"callbacks": [handler]})
    kept = tmp_path / "run.jsonl.interrupted"
    assert path.read_text(encoding="utf-8") == OLD and str(kept) in handler.interrupted
    _, events, warning = load_trace(kept)
    kinds = [e.kind for e in events]
    assert "tool_start" in kinds and "chain_error" not in kinds and "chain_end" not in kinds, kinds
    assert "interrupted" in warning and not list(tmp_path.glob("*.partial"))
