"""`loopscope verify`: each fixture re-executes with today's executor, or the first divergent event is named."""

import json

import pytest

from executor.events import SCHEMA_VERSION
from tests.helpers.cli_run import loopscope
from tracer.cli import main
from tracer.replay.verify import verify_trace
from tracer.trace.normalise import first_difference, normalise_event, normalise_events
from tracer.trace.transitions import Trace
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing").fixture


def lines_of(path):
    return path.read_text(encoding="utf-8").splitlines()


def write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def edited(tmp_path, change, name="edited.jsonl"):
    """A copy of the rose fixture with `change(event_dict)` applied to every event line."""
    header, *events = lines_of(ROSE)
    out = [header]
    for line in events:
        event = json.loads(line)
        change(event)
        out.append(json.dumps(event, ensure_ascii=False))
    return write(tmp_path / name, out)


def verify(capsys, *paths):
    return loopscope(capsys, "verify", *paths)


def test_the_rose_fixture_verifies_ok(capsys):
    code, out, _ = verify(capsys, ROSE)
    assert code == 0
    assert out.splitlines()[0].startswith(f"OK         {ROSE}  (")
    assert "1 trace: 1 ok" in out


def test_volatile_fields_are_not_compared(tmp_path, capsys):
    def shift(event):
        event["t"] = event["t"] + 100
        event["run_id"] = "someone-else"
        event["source"]["line"] += 7
        if event["kind"] == "llm_end":
            event["duration"], event["usage"] = 9.5, {"total_tokens": 123}

    code, out, _ = verify(capsys, edited(tmp_path, shift))
    assert code == 0, out


def test_a_changed_reply_diverges_at_the_next_prompt_with_a_readable_diff(tmp_path, capsys):
    def reword(event):
        if event["kind"] == "llm_start" and event["seq"] == 8:
            key = "prompt_append" if "prompt_append" in event else "prompt"  # growing prompts store only the new part
            event[key] = event[key].replace("Thought:", "Thinking:", 1)

    code, out, _ = verify(capsys, edited(tmp_path, reword))
    assert code == 1
    first, *rest = out.splitlines()
    assert first == f"DIVERGED   {tmp_path / 'edited.jsonl'}  event 8 (llm_start): prompt differs"
    assert any(line.strip() == "+++ re-run" for line in rest)
    assert any(line.strip().startswith("-Thinking:") for line in rest)
    assert "1 trace: 1 diverged" in out


def test_a_changed_tool_result_is_reported_with_field_and_both_values(tmp_path, capsys):
    def flip(event):
        if event["kind"] == "calculator_eval":
            event["result"] = "27.0"

    code, out, _ = verify(capsys, edited(tmp_path, flip))
    assert code == 1
    assert "(calculator_eval): result differs" in out
    assert "recorded: '27.0'" in out and "re-run:   '26.25'" in out


def test_a_truncated_fixture_is_reported_as_truncated_with_exit_2(tmp_path, capsys):
    data = ROSE.read_bytes()
    path = tmp_path / "cut.jsonl"
    path.write_bytes(data[:-30])
    code, out, _ = verify(capsys, path)
    assert code == 2
    line = out.splitlines()[0]
    assert line.startswith(f"TRUNCATED  {path}:") and "cut off" in line
    assert "they match the re-run" in line


@pytest.mark.parametrize(
    "mangle, expected",
    [
        (lambda lines: lines[:3] + ['{"seq": 2, "kind": '] + lines[4:], ":4: not valid JSON"),
        (
            lambda lines: [lines[0].replace(f'"schema_version": {SCHEMA_VERSION}', '"schema_version": 99')] + lines[1:],
            ":1: schema_version 99 is not supported",
        ),
        (lambda lines: lines[:2] + [lines[2].replace('"prompt":', '"promt":')] + lines[3:], ":3: invalid event"),
        (lambda lines: ['{"hello": 1}'] + lines[1:], ":1: not a loopscope trace"),
    ],
)
def test_bad_files_get_one_line_with_file_and_line_and_exit_2(tmp_path, capsys, mangle, expected):
    path = write(tmp_path / "bad.jsonl", mangle(lines_of(ROSE)))
    code, out, err = verify(capsys, path)
    assert code == 2 and "Traceback" not in out + err
    assert out.splitlines()[0].startswith(f"UNREADABLE {path}{expected}")


def test_one_bad_file_does_not_hide_the_verdict_on_the_others(tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    code, out, _ = verify(capsys, ROSE, missing)
    assert code == 2
    assert out.splitlines()[0].startswith("OK") and out.splitlines()[1].startswith(f"UNREADABLE {missing}")
    assert "2 traces: 1 ok, 1 unreadable" in out


def test_a_directory_stands_for_its_traces(tmp_path, capsys):
    write(tmp_path / "a.jsonl", lines_of(ROSE))
    write(tmp_path / "b.jsonl", lines_of(ROSE))
    code, out, _ = verify(capsys, tmp_path)
    assert code == 0 and "2 traces: 2 ok" in out


def test_a_trace_without_a_scenario_or_with_an_unknown_one_is_unreadable(tmp_path):
    header, *events = lines_of(ROSE)
    meta = json.loads(header)
    del meta["scenario"]
    result = verify_trace(write(tmp_path / "anon.jsonl", [json.dumps(meta)] + events))
    assert result.status == "unreadable" and "names no scenario" in result.message
    meta["scenario"] = "tulip-pricing"
    result = verify_trace(write(tmp_path / "tulip.jsonl", [json.dumps(meta)] + events))
    assert result.status == "unreadable" and "unknown scenario 'tulip-pricing'" in result.message


def test_a_scenario_that_ends_in_an_error_verifies_when_the_rerun_raises_the_same_way(tmp_path):
    path = get_scenario("tool-error-unhandled").fixture
    assert Trace.load(path).events[-1].kind == "chain_error"
    assert verify_trace(path).status == "ok"
    header, *events = lines_of(path)
    last = json.loads(events[-1])
    last["message"] = "a different failure"
    result = verify_trace(write(tmp_path / "err.jsonl", [header] + events[:-1] + [json.dumps(last)]))
    assert result.status == "diverged" and "(chain_error): message differs" in result.message


def test_first_difference_reports_a_rerun_that_stops_early_or_runs_on():
    events = Trace.load(ROSE).events
    full = normalise_events(events)
    assert first_difference(full, full) is None
    early = first_difference(full, full[:-2])
    assert (early.seq, early.field) == (len(events) - 2, "(end)")
    assert "the re-run has no such event" in early.explain()
    longer = first_difference(full[:-1], full)
    assert longer.field == "(extra)" and longer.actual == "chain_end"


def test_normalising_keeps_what_the_loop_decided():
    event = Trace.load(ROSE).events[2]
    data = normalise_event(event)
    assert data["text"] == event.text and data["frames"] == list(event.frames)
    assert data["t"] == data["duration"] == data["run_id"] == "<volatile>"
    assert data["source"]["function"] == "call_model" and data["source"]["line"] == "<volatile>"


@pytest.mark.parametrize("keep", [1, 10, 22])
def test_a_trace_cut_between_events_is_truncated_not_diverged(tmp_path, capsys, keep):
    lines = ROSE.read_bytes().splitlines(keepends=True)
    path = tmp_path / "killed.jsonl"
    path.write_bytes(b"".join(lines[: keep + 1]))  # the header and `keep` whole events: kill -9 between two
    code, out, _ = verify(capsys, path)
    assert code == 2
    assert out.startswith(f"TRUNCATED  {path}: the run was interrupted") and "DIVERGED" not in out


def test_a_header_only_trace_is_truncated(tmp_path, capsys):
    path = tmp_path / "header.jsonl"
    path.write_bytes(ROSE.read_bytes().splitlines(keepends=True)[0])
    code, out, _ = verify(capsys, path)
    assert code == 2 and out.startswith(f"TRUNCATED  {path}: the file has a header and no events")


def test_debug_print_says_a_killed_run_was_interrupted(tmp_path, capsys):
    lines = ROSE.read_bytes().splitlines(keepends=True)
    path = tmp_path / "killed.jsonl"
    path.write_bytes(b"".join(lines[:8]))
    assert main(["debug", str(path), "--print"]) == 0
    out = "".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert out.startswith(f"warning:{path}:therunwasinterrupted:itstopsafterevent6")


def test_a_divergence_into_an_exception_names_its_type_and_message(tmp_path, capsys):
    header, *events = lines_of(get_scenario("tool-error-handled").fixture)
    out = [header]
    for line in events:  # the recording says the tool answered; today's tool raises there
        event = json.loads(line)
        if event["kind"] == "tool_error" and event["seq"] == 5:
            event["kind"] = "tool_end"
            for key in ("error_type", "message", "handled"):
                event.pop(key)
        out.append(json.dumps(event, ensure_ascii=False))
    code, out, _ = verify(capsys, write(tmp_path / "answered.jsonl", out))
    assert code == 1
    first = out.splitlines()[0]
    assert first.endswith(
        "event 5 (tool_end): kind differs; the re-run raised ToolError: "
        '"SupplierQuote failed: the supplier\'s quote service did not answer within 10 seconds"'
    )


def test_the_pytest_report_of_a_divergence_names_the_exception_too():
    recorded = [{"seq": 5, "kind": "tool_end", "tool": "Search", "observation": "Rose House"}]
    rerun = [{"seq": 5, "kind": "tool_error", "tool": "Search", "error_type": "KeyError", "message": "x" * 500}]
    report = first_difference(recorded, rerun).explain()  # what the cassette's ReplayDivergence carries
    assert report.splitlines()[0].startswith("event 5 (tool_end): kind differs; the re-run raised KeyError: 'xxx")
    assert "x" * 200 not in report  # a page-long message is cut, the type is kept
    gone = first_difference(rerun, recorded)
    assert gone.explain().splitlines()[0].endswith("the recording raised KeyError: '" + "x" * 199 + "…'")
