"""A folder import writes each trace's events as they are made (issue 34): a trace of a million spans was held
as a list of two million events before a line was written."""

from __future__ import annotations

import json

from tests.trace.test_import_attacks import T0, otlp, otlp_span, write
from tracer.trace.importers import convert, import_to_folder
from tracer.trace.importers.run_events import _EventBuilder
from tracer.trace.reader import TraceFile


def tool_calls(count: int) -> dict:
    agent = otlp_span("a0", kind="AGENT", name="agent", start=str(T0), end=str(T0 + 10**9))
    tools = [
        otlp_span(f"t{n}", "a0", kind="TOOL", name=f"tool{n}", start=str(T0 + n * 1000), end=str(T0 + n * 1000 + 500))
        for n in range(count)
    ]
    return otlp(agent, *tools)


def test_events_are_written_as_they_are_made_never_gathered_in_a_list(tmp_path, monkeypatch):
    made: list[int] = []  # how many events existed, unwritten, each time the next one was made
    each = _EventBuilder.each

    def counting(self):
        for event in each(self):
            made.append(event.seq)
            yield event

    def refuse(self):
        raise AssertionError("the whole list of events was built")

    monkeypatch.setattr(_EventBuilder, "each", counting)
    monkeypatch.setattr(_EventBuilder, "events", refuse)
    source = write(tmp_path, tool_calls(300))
    folder = tmp_path / "out"
    written = list(import_to_folder(source, folder).written)
    assert len(written) == 1 and written[0].events == 602  # chain_start, 300 tool_start/tool_end, chain_end
    assert made == list(range(602))
    with TraceFile(written[0].path) as trace:
        assert len(trace) == 602 and [e.kind for e in trace][:3] == ["chain_start", "tool_start", "tool_end"]
        assert trace[-1].kind == "chain_end"


def test_the_streamed_trace_is_the_one_the_list_made(tmp_path):
    source = write(tmp_path, tool_calls(25))
    (written,) = import_to_folder(source, tmp_path / "a").written
    streamed = written.path

    listed = [json.loads(line) for line in streamed.read_text("utf-8").splitlines()[1:]]
    events = convert(source).events
    assert [(e["kind"], e["seq"], e["t"]) for e in listed] == [(e.kind, e.seq, e.t) for e in events]
