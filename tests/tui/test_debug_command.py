"""`loopscope debug`: bad input is one line on stderr and exit 2; without a terminal it prints the narrated run."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.paths import ROSE
from tracer.trace.reader import TraceFile, TraceFormatError
from tracer.tui.launch import open_debugger


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    return loopscope(capsys, "debug", *argv)


@pytest.fixture
def bad_traces(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    prose = tmp_path / "notes.jsonl"
    prose.write_text("these are my notes\n")
    future = tmp_path / "future.jsonl"
    future.write_text(json.dumps({"format": "loopscope-trace", "schema_version": 99}) + "\n")
    return {
        "missing": (tmp_path / "nope.jsonl", "no such file"),
        "empty": (empty, "the file is empty"),
        "not JSONL": (prose, "the first line is not JSON"),
        "wrong version": (future, "schema_version 99 is not supported"),
    }


@pytest.mark.parametrize("case", ["missing", "empty", "not JSONL", "wrong version"])
def test_a_bad_trace_is_one_line_on_stderr_and_exit_2(capsys, bad_traces, case):
    path, message = bad_traces[case]
    code, out, err = run_cli(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith("loopscope: ") and message in err and err.count("\n") == 1


def test_open_debugger_raises_the_same_error_before_any_screen_appears(bad_traces):
    path, message = bad_traces["not JSONL"]
    with pytest.raises(TraceFormatError, match=message):
        open_debugger(path)


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "give a trace file or --live SCENARIO"),
        (["x.jsonl", "--live", "rose-pricing"], "give a trace file or --live SCENARIO"),
        ([str(ROSE), "--break", "kind=nope"], "--break 'kind=nope': unknown event kind"),
        (["--live", "no-such-scenario"], "no-such-scenario"),
        ([str(ROSE), "--record", "x.jsonl"], "--record only applies to --live"),
    ],
)
def test_bad_arguments_are_usage_errors(capsys, argv, message):
    code, _out, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_without_a_terminal_the_trace_is_narrated(capsys):
    code, out, _err = run_cli(capsys, str(ROSE))
    assert code == 0
    assert "Entering new AgentExecutor chain" in out and "Observation: Answer: 26.25" in out
    assert out.count("isinstance(output, AgentFinish) → ") == 3 and "Finished chain" in out


def test_without_a_terminal_a_live_run_is_narrated_and_recorded(capsys, tmp_path):
    out_path = tmp_path / "live.jsonl"
    code, out, _err = run_cli(capsys, "--live", "rose-pricing", "--record", str(out_path))
    assert code == 0 and "Finished chain" in out and f"trace written to {out_path}" in out.replace("\n", "")
    with TraceFile(out_path) as trace:
        assert len(trace) == 23 and trace.header.live is True


def test_a_broken_line_in_a_small_trace_is_reported_before_the_window_opens(capsys, tmp_path):
    lines = ROSE.read_text(encoding="utf-8").splitlines()
    lines[6] = "{ not json"
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TraceFormatError, match=":7: not valid JSON"):
        open_debugger(broken)
