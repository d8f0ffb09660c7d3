"""Recording: the modes none / once / rewrite, `loopscope record`, and writes that are all-or-nothing."""

import pytest

from executor import ScriptedModel
from tracer.cli import main
from tracer.replay.cassette import (
    Cassette,
    CassetteMissing,
    RecordMode,
    should_record,
)
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing")


def test_record_mode_decisions(tmp_path):
    missing, present = tmp_path / "missing.jsonl", tmp_path / "present.jsonl"
    present.write_text("x", encoding="utf-8")
    assert should_record(RecordMode.ONCE, missing) is True
    assert should_record(RecordMode.ONCE, present) is False
    assert should_record(RecordMode.REWRITE, present) is True
    assert should_record(RecordMode.NONE, present) is False
    with pytest.raises(CassetteMissing, match="--loopscope-record=once"):
        should_record(RecordMode.NONE, missing)


def test_record_mode_parsing():
    assert RecordMode.parse(None) is RecordMode.NONE and RecordMode.parse("") is RecordMode.NONE
    assert RecordMode.parse("Once") is RecordMode.ONCE
    with pytest.raises(ValueError, match="unknown record mode 'all'; use one of: none, once, rewrite"):
        RecordMode.parse("all")


def test_record_command_writes_a_trace_that_verifies(tmp_path, capsys):
    out = tmp_path / "rose.jsonl"
    assert main(["record", "rose-pricing", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"recorded 23 events of rose-pricing to {out}")
    header, _events, warning = load_trace(out)
    assert header.scenario == "rose-pricing" and header.clock_tick == 0.001 and warning is None
    assert main(["verify", str(out)]) == 0


def test_once_keeps_an_existing_file_and_rewrite_replaces_it(tmp_path, capsys):
    out = tmp_path / "rose.jsonl"
    out.write_text("not a trace\n", encoding="utf-8")
    assert main(["record", "rose-pricing", "-o", str(out), "--mode", "once"]) == 0
    assert "kept" in capsys.readouterr().out and out.read_text(encoding="utf-8") == "not a trace\n"
    assert main(["record", "rose-pricing", "-o", str(out), "--mode", "rewrite"]) == 0
    assert load_trace(out)[0].scenario == "rose-pricing"


def test_recording_a_scenario_meant_to_fail_says_so(tmp_path, capsys):
    out = tmp_path / "err.jsonl"
    assert main(["record", "tool-error-unhandled", "-o", str(out)]) == 0
    assert "the run ended with ToolError as this scenario intends" in capsys.readouterr().out
    assert load_trace(out)[1][-1].kind == "chain_error"


def test_a_run_that_dies_mid_write_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "rose.jsonl"
    assert main(["record", "rose-pricing", "-o", str(path)]) == 0
    before = path.read_bytes()
    writer = TraceWriter(path, scenario="rose-pricing")
    events = ROSE.executor(ScriptedModel(ROSE.replies)).iter_events(ROSE.inputs())
    for _ in range(5):  # up to tool_start, where the run waits on its tool
        writer(next(events))
    # The process "dies" here: nothing renamed the partial file over the old recording.
    assert path.read_bytes() == before
    assert len(load_trace(writer.partial)[1]) == 5
    writer.discard()
    assert not writer.partial.exists() and path.read_bytes() == before


def test_record_bad_input_is_one_line_with_exit_2(tmp_path, capsys):
    assert main(["record", "tulip-pricing", "-o", str(tmp_path / "t.jsonl")]) == 2
    assert "unknown scenario 'tulip-pricing'" in capsys.readouterr().err
    assert main(["record", "rose-pricing", "-o", str(tmp_path / "t.jsonl"), "--redact", "("]) == 2
    err = capsys.readouterr().err
    assert "is not a valid regular expression" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.jsonl").exists()


def build(model):
    return ROSE.executor(model)


def test_a_cassette_records_when_missing_under_once_and_replays_afterwards(tmp_path):
    path = tmp_path / "cassettes" / "rose.jsonl"
    first = Cassette(path, "once")
    recorded = first.run(build, ROSE.inputs(), live_model=lambda: ScriptedModel(ROSE.replies))
    assert first.recorded is True and path.exists() and recorded.outcome().startswith("finished")

    def no_live_model():
        raise AssertionError("replay must not build the live model")

    again = Cassette(path, "once")
    replayed = again.run(build, ROSE.inputs(), live_model=no_live_model)
    assert again.recorded is False and replayed.labels() == recorded.labels()
    assert Cassette(path).run(build, ROSE.inputs()).labels() == recorded.labels()


def test_a_cassette_that_must_record_without_a_live_model_says_so(tmp_path):
    with pytest.raises(CassetteMissing, match="no live_model was given"):
        Cassette(tmp_path / "c.jsonl", "rewrite").run(build, ROSE.inputs())
