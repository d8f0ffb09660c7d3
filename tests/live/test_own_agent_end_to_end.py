"""Issue 10's done-when: a project outside the repo, recorded through the CLI against the fake OpenAI server,
verified offline, forked and diffed, snapshot-tested with the plugin in its own pytest, and opened in the debugger."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.pilot_helpers import debugger, highlighted, settle
from tests.helpers.user_project import QUESTION, REPLIES, write_project
from tracer.trace.reader import load_trace

PROJECT_TEST = """
from florist import build

def test_florist(loopscope_cassette, trace_snapshot):
    trace = loopscope_cassette.run(build, {"input": "What do 12 roses cost?"},
                                   live_model=lambda: (_ for _ in ()).throw(AssertionError("went live")))
    assert trace.outcome().startswith("finished: 12 roses cost 30.00")
    assert trace == trace_snapshot
"""


def pytest_in(folder, *argv):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def fresh_florist():
    sys.modules.pop("florist", None)
    yield
    sys.modules.pop("florist", None)  # the CLI imported this test's florist.py; the next test has its own


@pytest.mark.slow
async def test_a_users_project_from_record_to_debugger(live_env, tmp_path, capsys, fresh_florist):
    source = write_project(tmp_path)  # live_env already runs us from tmp_path, outside the repo
    live_env.push(*REPLIES)
    code, out, err = loopscope(
        capsys, "record", "florist:build", "--input", QUESTION, "--model", "openai:fake-model", "-o", "run.jsonl"
    )
    assert code == 0, err
    served = len(live_env.received)
    sys.modules.pop("florist", None)

    # The project trusts its own agent in pyproject.toml, so verify may import what the header names.
    (tmp_path / "pyproject.toml").write_text('[tool.loopscope]\nagents = ["florist:build"]\n', encoding="utf-8")
    code, out, err = loopscope(capsys, "verify", "run.jsonl")
    assert code == 0 and "1 ok" in out, out + err

    _header, events, _ = load_trace(tmp_path / "run.jsonl")
    second_call = [e.seq for e in events if e.kind == "llm_start"][1]
    code, out, err = loopscope(
        capsys,
        "fork",
        "run.jsonl",
        "--at",
        str(second_call),
        "--reply",
        "Thought: enough\nFinal Answer: about 30",
        "-o",
        "fork.jsonl",
        "--agent",
        "florist:build",
    )
    assert code == 0 and "outcome: finished: about 30" in out, out + err
    code, out, err = loopscope(capsys, "diff", "run.jsonl", "fork.jsonl")
    assert "tool(stock)" in out and "A finished: 12 roses cost 30.00" in out, out
    assert len(live_env.received) == served  # verify, fork and diff never went live

    cassette = tmp_path / "cassettes" / "test_florist" / "test_florist.jsonl"
    cassette.parent.mkdir(parents=True)
    shutil.copy(tmp_path / "run.jsonl", cassette)  # the CLI's recording is the test's cassette
    (tmp_path / "test_florist.py").write_text(PROJECT_TEST, encoding="utf-8")
    first = pytest_in(tmp_path, "--snapshot-update", "test_florist.py")
    assert first.returncode == 0, first.stdout + first.stderr
    again = pytest_in(tmp_path, "test_florist.py")
    assert again.returncode == 0 and "1 passed" in again.stdout, again.stdout + again.stderr

    app = debugger(tmp_path / "run.jsonl")
    async with app.run_test(size=(120, 40)) as pilot:
        start = next(e.seq for e in events if e.kind == "tool_start" and e.tool == "price")
        app.session.goto(start)
        app.screen.refresh_panes()
        await settle(pilot)
        file, line = highlighted(app)
        assert file == source.resolve().as_posix()
        assert source.read_text().splitlines()[line - 1] == "def price(item: str, quantity: int) -> str:"  # not @tool
        assert "florist.py" in str(app.screen.query_one("#source-pane").border_title)
