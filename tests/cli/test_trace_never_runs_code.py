"""The attack: a trace downloaded with a .py beside it, opened with every command; nothing it names is imported."""

from __future__ import annotations

import sys

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.hostile_agents import forget_bait, hostile_trace, imported_bait, markers, write_bait
from tests.helpers.paths import ROSE
from tracer.cli import main

# What a header can name: a file beside the trace, a module in the working directory, a module in a
# package, the standard library; alone, or with a scenario (verify used to import it for a note),
# and a "scenario" that is really MODULE:FUNCTION.
HEADERS = {
    "file": {"agent": "evil.py:build"},
    "module": {"agent": "evil:build"},
    "package": {"agent": "pkg.sub:build"},
    "stdlib": {"agent": "this:build"},
    "scenario-and-file": {"scenario": "rose-pricing", "agent": "evil.py:build"},
    "scenario-and-stdlib": {"scenario": "rose-pricing", "agent": "this:build"},
    "scenario-is-a-module": {"scenario": "evil:build"},
}

# Every command that opens a trace; {t} is the hostile trace.
COMMANDS = {
    "verify": ["verify", "{t}"],
    "fork": ["fork", "{t}", "--at", "1", "--reply", "Final Answer: x", "-o", "fork.jsonl"],
    "debug": ["debug", "{t}", "--print"],
    "call": ["call", "{t}", "--at", "1"],
    # call takes --agent like every command, and still never builds an agent
    "call-with-agent": ["call", "{t}", "--at", "1", "--agent", "evil:build"],
    "diff": ["diff", "{t}", str(ROSE)],
    "export-mermaid": ["export", "{t}", "--mermaid"],
    "export-otlp": ["export", "{t}", "--format", "otlp-json", "-o", "spans.json"],
    "run": ["run", "rose-pricing", "--fixture", "{t}"],
}


@pytest.fixture
def downloads(tmp_path, monkeypatch):
    write_bait(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    forget_bait()
    yield tmp_path
    forget_bait()


def run_on(capsys, argv, trace):
    """The command `argv` with its `{t}` standing for the trace's path."""
    return loopscope(capsys, *(word.replace("{t}", str(trace)) for word in argv))


@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_no_command_imports_what_a_trace_names(downloads, capsys, command, header):
    trace = hostile_trace(downloads, "them.jsonl", **header)
    code, out, err = run_on(capsys, command, trace)
    assert markers(downloads) == [] and imported_bait() == [], (out, err)
    assert "Traceback" not in err
    untrusted = "scenario" not in header
    if command[0] in ("verify", "fork") and untrusted:
        said = out.splitlines()[0] if command[0] == "verify" else err.strip()
        assert code == 2 and "--agent" in said and "[tool.loopscope] agents" in said, out + err
        assert command[0] == "verify" or len(err.strip().splitlines()) == 1
        assert not (downloads / "fork.jsonl").exists()


def test_verify_says_untrusted_in_one_line_and_exits_2(downloads, capsys):
    code, out, _err = run_on(capsys, ["verify", "{t}"], hostile_trace(downloads, "t.jsonl", agent="evil:build"))
    assert code == 2 and out.splitlines() == [
        f"UNTRUSTED  {downloads / 't.jsonl'}:1: the trace names agent 'evil:build', which you have not trusted, "
        "so it is not run; if it is yours, pass --agent evil:build or list it in [tool.loopscope] agents "
        "in your pyproject.toml",
        "1 trace: 1 untrusted",
    ]


def test_with_agent_verify_and_fork_run_the_named_agent(downloads, capsys):
    trace = hostile_trace(downloads, "t.jsonl", agent="evil.py:build")
    code, out, err = run_on(capsys, ["verify", "{t}", "--agent", "evil.py:build"], trace)
    assert code == 0 and "1 ok" in out, out + err
    assert markers(downloads) == ["evil.imported"]
    code, out, err = run_on(
        capsys,
        ["fork", "{t}", "--at", "1", "--reply", "Final Answer: x", "-o", "f.jsonl", "--agent", "evil:build"],
        trace,
    )  # the same file, by module name
    assert code == 0 and "outcome: finished: x" in out, out + err


def test_a_pyproject_entry_trusts_the_agent_for_verify(downloads, capsys):
    (downloads / "pyproject.toml").write_text('[tool.loopscope]\nagents = ["evil:build"]\n', encoding="utf-8")
    code, out, err = run_on(capsys, ["verify", "{t}"], hostile_trace(downloads, "t.jsonl", agent="evil:build"))
    assert code == 0 and "1 ok" in out and markers(downloads) == ["evil.imported"], out + err


def test_a_trusted_module_does_not_trust_the_same_name_elsewhere(downloads, capsys):
    elsewhere = downloads / "elsewhere"
    write_bait(elsewhere)
    (downloads / "pyproject.toml").write_text('[tool.loopscope]\nagents = ["evil:build"]\n', encoding="utf-8")
    trace = hostile_trace(elsewhere, "t.jsonl", agent=f"{elsewhere}/evil.py:build")
    for argv in (["verify", "{t}"], ["verify", "{t}", "--agent", "evil:build"]):
        code, out, err = run_on(capsys, argv, trace)
        assert code == 2 and out.startswith("UNTRUSTED") and markers(downloads) == [], out + err


def test_an_agent_flag_that_is_no_spec_is_refused_before_anything_runs(downloads, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["verify", str(hostile_trace(downloads, "t.jsonl", agent="evil:build")), "--agent", "evil"])
    assert exited.value.code == 2 and "'evil' is not MODULE:FUNCTION" in capsys.readouterr().err
    assert markers(downloads) == []


def test_verify_whose_agent_build_raises_is_one_line_exit_2(downloads, capsys):
    (downloads / "broken.py").write_text(
        "def build(model):\n    raise RuntimeError('no florist today')\n", encoding="utf-8"
    )
    sys.modules.pop("broken", None)
    trace = hostile_trace(downloads, "t.jsonl", agent="broken:build")
    code, out, err = run_on(capsys, ["verify", "{t}", "--agent", "broken:build"], trace)
    sys.modules.pop("broken", None)
    assert code == 2 and err == ""
    assert out.splitlines()[0].endswith("agent 'broken:build': build(model) raised RuntimeError: no florist today")
    assert len(out.splitlines()) == 2  # the verdict and the summary


def test_run_and_fork_with_a_build_that_raises_are_one_line_too(downloads, capsys):
    (downloads / "broken.py").write_text(
        "def build(model):\n    raise RuntimeError('no florist today')\n", encoding="utf-8"
    )
    sys.modules.pop("broken", None)
    trace = hostile_trace(downloads, "t.jsonl", agent="broken:build")
    for argv in (
        ["run", "broken:build", "--fixture", "{t}"],
        ["fork", "{t}", "--at", "1", "--reply", "x", "--agent", "broken:build"],
    ):
        code, _out, err = run_on(capsys, argv, trace)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "raised RuntimeError: no florist today" in err
    sys.modules.pop("broken", None)
