"""A user's own agent named as MODULE:FUNCTION / FILE.py:FUNCTION on the command line: record, verify (--agent), run."""

import json
import sys

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.user_project import QUESTION, REPLIES, write_project
from tracer.trace.reader import load_trace


@pytest.fixture
def project(live_env, tmp_path, monkeypatch):
    write_project(tmp_path)
    sys.modules.pop("florist", None)  # another test's florist.py may be imported already
    yield tmp_path
    sys.modules.pop("florist", None)  # each test imports its own copy


def test_record_names_the_agent_in_the_header_and_verify_rebuilds_it_offline(project, live_env, capsys):
    live_env.push(*REPLIES)
    code, out, err = loopscope(
        capsys, "record", "florist:build", "--input", QUESTION, "--model", "openai:fake-model", "-o", "run.jsonl"
    )
    assert code == 0, err
    header, events, _ = load_trace(project / "run.jsonl")
    assert header.agent == "florist:build" and header.scenario is None and len(header.agent_hash) == 64
    assert events[-1].kind == "chain_end" and "SPRING10" in events[-1].outputs["output"]
    observations = [e.observation for e in events if e.kind == "tool_end"]
    assert observations == ["12 roses cost 30.00", "rose: 40 in stock", "SPRING10"]

    served = len(live_env.received)
    sys.modules.pop("florist", None)  # verify imports the agent again, as a fresh process would
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "florist:build")
    assert code == 0, out + err
    assert "OK" in out and len(live_env.received) == served

    code, out, err = loopscope(capsys, "run", "florist:build", "--fixture", "run.jsonl")
    assert code == 0, err
    assert "replayed run.jsonl offline" in out and len(live_env.received) == served

    # --agent is the same name said as a flag, on run as on verify, fork and debug
    code, flagged, err = loopscope(capsys, "run", "--agent", "florist:build", "--fixture", "run.jsonl")
    assert code == 0, err
    assert flagged.splitlines()[:-1] == out.splitlines()[:-1]  # all but the timing line


def test_a_file_path_spec_works_and_the_default_recording_lands_in_the_working_directory(project, live_env, capsys):
    live_env.push(*REPLIES)
    code, _out, err = loopscope(
        capsys,
        "record",
        "./florist.py:build",
        "--inputs",
        json.dumps({"input": QUESTION}),
        "--model",
        "openai:fake-model",
    )
    assert code == 0, err
    assert (project / "florist_build.jsonl").exists()
    assert load_trace(project / "florist_build.jsonl")[0].agent == "./florist.py:build"


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["record", "nosuch:build", "--input", "x", "--model", "openai:fake-model"],
            "cannot import agent 'nosuch:build': module 'nosuch' failed with ModuleNotFoundError",
        ),
        (
            ["record", "florist:nope", "--input", "x", "--model", "openai:fake-model"],
            "module 'florist' has no function 'nope'",
        ),
        (["record", "florist:build", "--model", "openai:fake-model"], "give --input TEXT"),
        (["record", "florist:build", "--input", "x"], "record it against a model"),
        (["record", "florist:build", "--inputs", "[1]", "--model", "openai:fake-model"], "must be a JSON object"),
        (["run", "rose-pricing", "--input", "x"], "--input/--inputs are for your own agent"),
        (["run", "florist:build", "--agent", "other:build"], "name one agent"),
        (["run"], "name what to run"),
    ],
)
def test_bad_agent_specs_are_one_line_errors(project, capsys, argv, message):
    code, _out, err = loopscope(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_broken_user_module_is_named_with_its_reason(project, capsys):
    (project / "broken.py").write_text("raise RuntimeError('no florist today')\n", encoding="utf-8")
    code, _out, err = loopscope(capsys, "record", "broken:build", "--input", "x", "--model", "openai:fake-model")
    assert code == 2
    assert "module 'broken' failed with RuntimeError: no florist today" in err


def test_verify_notes_when_the_agent_file_changed_since_recording(project, live_env, capsys):
    live_env.push(*REPLIES)
    assert (
        loopscope(
            capsys, "record", "florist:build", "--input", QUESTION, "--model", "openai:fake-model", "-o", "run.jsonl"
        )[0]
        == 0
    )
    source = project / "florist.py"
    source.write_text(source.read_text() + "\n# a comment added later\n", encoding="utf-8")
    sys.modules.pop("florist", None)
    code, out, _err = loopscope(capsys, "verify", "run.jsonl", "--agent", "florist:build")
    assert code == 0 and "note: florist.py changed since this trace was recorded; its events still match" in out
