"""Trace files: the JSONL round trip, the header, partial files, and every kind of bad input."""

import json

import pytest

from executor import ManualClock, ScriptedModel
from executor.events import SCHEMA_VERSION
from tracer.cli import main
from tracer.trace.reader import TraceFile, TraceFormatError, load_trace
from tracer.trace.writer import TraceWriter
from tutorials import get_scenario


def record(path, **meta):
    scenario = get_scenario("rose-pricing")
    executor = scenario.executor(ScriptedModel(scenario.replies), clock=ManualClock(tick=0.001))
    events = []
    with TraceWriter(path, **meta) as writer:
        executor.invoke(scenario.inputs(), [events.append, writer])
    return events


def test_round_trip_gives_back_equal_typed_events(tmp_path):
    path = tmp_path / "run.jsonl"
    events = record(path, scenario="rose-pricing")
    header, loaded, warning = load_trace(path)
    assert loaded == events and warning is None
    assert type(loaded[3]).__name__ == "AgentActionEvent"
    assert header.schema_version == SCHEMA_VERSION and header.scenario == "rose-pricing"
    # no per-file executor hashes: an edit to the executor must not rewrite every recorded header
    assert "executor_hashes" not in path.read_text(encoding="utf-8").splitlines()[0]
    assert not (tmp_path / "run.jsonl.partial").exists()


def test_lazy_reader_indexes_lines_and_decodes_on_demand(tmp_path):
    path = tmp_path / "run.jsonl"
    events = record(path)
    with TraceFile(path) as trace:
        assert len(trace) == len(events)
        assert trace[-1] == events[-1] and trace[5] == events[5]
        assert json.loads(trace.raw_line(0))["kind"] == "chain_start"
        with pytest.raises(IndexError):
            trace[len(events)]


def _kinds_on_disk(writer):
    return [e.kind for e in load_trace(writer.partial)[1]]


def test_events_reach_the_partial_file_before_the_run_waits_on_a_model_or_a_tool(tmp_path):
    path = tmp_path / "run.jsonl"
    writer = TraceWriter(path)
    scenario = get_scenario("rose-pricing")
    generator = scenario.executor(ScriptedModel(scenario.replies)).iter_events(scenario.inputs())
    for _ in range(2):
        writer(next(generator))
    # llm_start: the model is about to be called, and the process could die while it waits.
    assert _kinds_on_disk(writer) == ["chain_start", "llm_start"]
    writer(next(generator))  # llm_end: the loop goes straight on, the line waits in the buffer
    writer(next(generator))  # agent_action
    assert _kinds_on_disk(writer) == ["chain_start", "llm_start"]
    writer(next(generator))  # tool_start: the tool is about to run
    assert _kinds_on_disk(writer) == ["chain_start", "llm_start", "llm_end", "agent_action", "tool_start"]
    assert not path.exists()
    writer.close()
    assert path.exists() and not writer.partial.exists()


def test_flush_event_writes_every_event_as_it_happens_for_listeners_that_pause(tmp_path):
    writer = TraceWriter(tmp_path / "run.jsonl", flush="event")
    scenario = get_scenario("rose-pricing")
    generator = scenario.executor(ScriptedModel(scenario.replies)).iter_events(scenario.inputs())
    for _ in range(4):
        writer(next(generator))
    assert _kinds_on_disk(writer) == ["chain_start", "llm_start", "llm_end", "agent_action"]
    writer.discard()
    with pytest.raises(ValueError, match="flush must be"):
        TraceWriter(tmp_path / "other.jsonl", flush="sometimes")


def test_truncated_last_line_is_reported_and_the_prefix_loads(tmp_path):
    path = tmp_path / "run.jsonl"
    record(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])  # cut inside the last event
    _header, loaded, warning = load_trace(path)
    assert len(loaded) == 22 and loaded[-1].kind == "finish_check"
    assert "cut off" in warning and ":24:" in warning


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def good_header():
    return json.dumps({"format": "loopscope-trace", "schema_version": SCHEMA_VERSION})


@pytest.mark.parametrize(
    "content,problem",
    [
        (None, "no such file"),
        ("", "the file is empty"),
        ("hello world\n", ":1: not a loopscope trace: the first line is not JSON"),
        # JSON that is no loopscope trace goes to the importers, which say what they found.
        ('{"a": 1}\n', ": not a loopscope trace or a known export: found a JSON object with keys a; expected"),
        ('{"a": 1}\n{"seq": 0, "kind": "chain_start"}\n', ':1: not a loopscope trace: the header has no "format"'),
        (
            json.dumps({"format": "loopscope-trace", "schema_version": 99}) + "\n",
            ":1: schema_version 99 is not supported",
        ),
    ],
)
def test_bad_files_get_a_one_line_error_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    with pytest.raises(TraceFormatError) as caught:
        load_trace(path)
    message = str(caught.value)
    assert problem in message and str(path) in message and "\n" not in message


def test_an_invalid_event_line_names_the_line_and_the_field(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = record(tmp_path / "good.jsonl")[0].model_dump_json()
    broken = json.loads(good)
    del broken["inputs"]
    write_lines(path, [good_header(), good, json.dumps(broken)])
    with pytest.raises(TraceFormatError, match=r"bad.jsonl:3: invalid event: chain_start.inputs: Field required"):
        load_trace(path)
    write_lines(path, [good_header(), good, '{"kind": "teleport"}'])
    with pytest.raises(TraceFormatError, match=r":3: unknown event kind 'teleport'"):
        load_trace(path)
    write_lines(path, [good_header(), "{not json", good])
    with pytest.raises(TraceFormatError, match=r":2: not valid JSON"):
        load_trace(path)


def test_cli_reports_bad_trace_in_one_line_with_exit_code_2(tmp_path, capsys):
    path = write_lines(tmp_path / "bad.jsonl", ["not json"])
    returncode = main(["run", "rose-pricing", "--fixture", str(path)])
    stderr = capsys.readouterr().err
    assert returncode == 2
    assert stderr.strip().count("\n") == 0 and "Traceback" not in stderr
    assert "bad.jsonl:1: not a loopscope trace" in stderr


def test_growing_prompts_are_stored_as_base_plus_append_and_read_back_whole(tmp_path):
    from tests.helpers.loop_builders import action, finish, scripted_executor

    replies = [action("Echo", f"item {i}") for i in range(60)] + [finish("done")]
    executor, model = scripted_executor(replies, max_iterations=70)
    path = tmp_path / "long.jsonl"
    events = []
    with TraceWriter(path) as writer:
        executor.invoke({"input": "q"}, [events.append, writer])
    lines = path.read_text().splitlines()
    llm_starts = [json.loads(line) for line in lines[1:] if '"kind":"llm_start"' in line]
    assert "prompt" in llm_starts[0] and all("prompt_base" in d and "prompt" not in d for d in llm_starts[1:])
    stored = sum(len(line) for line in lines if '"kind":"llm_start"' in line)
    assert stored < sum(len(p) for p in model.prompts) / 5  # linear in the run, not the sum of every prompt
    with TraceFile(path) as trace:
        assert trace[len(trace) - 3] == events[-3]  # random access to a late event first
        assert [e.prompt for e in trace if e.kind == "llm_start"] == model.prompts
    assert load_trace(path)[1] == events


def test_a_prompt_base_that_points_nowhere_is_a_clear_error(tmp_path):
    path = tmp_path / "run.jsonl"
    record(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    index = max(i for i, line in enumerate(lines) if '"prompt_base"' in line)
    data = json.loads(lines[index])
    data["prompt_base"] = 9999
    lines[index] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TraceFormatError, match=f":{index + 1}: prompt_base 9999 does not name an earlier event"):
        load_trace(path)


def test_newlines_are_found_across_scan_chunk_boundaries(tmp_path, monkeypatch):
    import tracer.trace.reader as trace_file

    path = tmp_path / "run.jsonl"
    events = record(path)
    monkeypatch.setattr(trace_file, "SCAN_CHUNK", 4096)  # many chunks, lines cut at their edges
    with TraceFile(path) as trace:
        assert len(trace) == len(events)
        assert [trace[i] for i in range(len(trace))] == events


def test_small_and_large_traces_find_the_same_lines(tmp_path, monkeypatch):
    from tracer.trace import reader
    from tracer.trace.file_bytes import TraceBytes

    path = tmp_path / "run.jsonl"
    record(path)
    data = path.read_bytes()
    for content in (data, data[:-1], data[: len(data) - 40]):  # whole, no final newline, cut mid-line
        path.write_bytes(content)
        with open(path, "rb") as handle:
            small = reader._line_spans(TraceBytes(handle.fileno(), path, len(content)))
            monkeypatch.setattr(reader, "SMALL_TRACE", 0)
            large = reader._line_spans(TraceBytes(handle.fileno(), path, len(content)))
            monkeypatch.setattr(reader, "SMALL_TRACE", 4 * 1024 * 1024)
        assert [list(map(int, side)) for side in small] == [list(map(int, side)) for side in large]
        assert small[1][-1] == len(content) - (content.endswith(b"\n"))
