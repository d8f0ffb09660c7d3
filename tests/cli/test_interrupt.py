"""Ctrl-C (a real SIGINT to a real process) during `record` and `run --trace` keeps the good trace."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROOT, ROSE
from tracer.trace.reader import load_trace

pytestmark = pytest.mark.slow  # each case starts a process and interrupts it

# Runs the CLI, but the writer pauses after PAUSE_AT events (as a slow model would) and says so.
PAUSING_CLI = """
import os, sys, time
from tracer.trace import writer
from tracer.cli import main
real_call = writer.TraceWriter.__call__
def slow_call(self, event):
    real_call(self, event)
    if self.count == int(os.environ["PAUSE_AT"]):
        print("paused", flush=True)
        time.sleep(60)
writer.TraceWriter.__call__ = slow_call
sys.exit(main(sys.argv[1:]))
"""


def interrupt(args: list[str], pause_at: int = 5) -> tuple[int, str]:
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSING_CLI, *args],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PAUSE_AT": str(pause_at)},
    )
    for line in process.stdout:
        if line.strip() == "paused":
            break
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=30)
    return process.returncode, err


# 5: paused after tool_start, written before the tool runs; 4: after agent_action, still gathered
# in the writer (it writes before the run next waits), so only the interrupt can write it out.
@pytest.mark.parametrize("pause_at", [5, 4])
@pytest.mark.parametrize("command", [["record", "rose-pricing", "-o"], ["run", "rose-pricing", "--trace"]])
def test_ctrl_c_leaves_the_old_trace_and_keeps_the_partial_one_under_its_own_name(tmp_path, command, pause_at):
    target = tmp_path / "rose.jsonl"
    target.write_bytes(ROSE.read_bytes())
    code, err = interrupt([*command, str(target)], pause_at)
    assert code == 130
    assert target.read_bytes() == ROSE.read_bytes()
    kept = tmp_path / "rose.jsonl.interrupted"
    assert err.strip().splitlines() == [
        f"loopscope: interrupted; {target} was left as it was; the partial run is in {kept}"
    ]
    _header, events, warning = load_trace(kept)
    assert len(events) == pause_at and "interrupted" in warning
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rose.jsonl", "rose.jsonl.interrupted"]


def test_a_second_ctrl_c_keeps_the_first_partial_run_and_runs_marks_both_interrupted(tmp_path, capsys):
    target = tmp_path / "rose.jsonl"
    target.write_bytes(ROSE.read_bytes())
    first, second = tmp_path / "rose.jsonl.interrupted", tmp_path / "rose.2.jsonl.interrupted"
    assert interrupt(["record", "rose-pricing", "-o", str(target)], 5)[0] == 130
    code, err = interrupt(["record", "rose-pricing", "-o", str(target)], 4)
    assert code == 130 and err.strip().endswith(f"the partial run is in {second}"), err
    assert [len(load_trace(kept)[1]) for kept in (first, second)] == [5, 4]  # the first run's events survive
    assert target.read_bytes() == ROSE.read_bytes()
    code, out, err = loopscope(capsys, "runs", tmp_path, "--json", "--catalogue", tmp_path / "c.db")
    outcomes = {Path(row["path"]).name: row["outcome"] for row in map(json.loads, out.splitlines())}
    assert outcomes == {"rose.jsonl": "finished", first.name: "interrupted", second.name: "interrupted"}, err
