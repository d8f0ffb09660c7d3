"""An event the LangChain recorder holds back (a graph's finish check, waiting for its edge's answer) is written
before the next event, and before the file ends when no event comes: it is never lost, never out of order."""

from __future__ import annotations

import sys
import time
import uuid

from executor.events import ChainEndEvent, FinishCheckEvent
from tracer.bridges.langchain_recorder import TraceRecorder
from tracer.trace.transitions import Trace


def held_check(recorder: TraceRecorder, run_id: uuid.UUID):
    def make() -> None:
        recorder.emit(FinishCheckEvent, "on_llm_end", run_id, None, (), is_finish=True, output_type="AgentFinish")

    return make


def test_a_held_event_comes_before_the_next_one(tmp_path):
    recorder, run_id = TraceRecorder(tmp_path / "run.jsonl", None, time.monotonic), uuid.uuid4()
    recorder.begin(run_id, sys._getframe())
    recorder.pending = held_check(recorder, run_id)
    recorder.emit(ChainEndEvent, "on_chain_end", run_id, None, (), outputs={"output": "done"})
    recorder.close()
    assert [(e.seq, e.kind) for e in Trace.load(tmp_path / "run.jsonl").events] == [
        (0, "finish_check"),
        (1, "chain_end"),
    ]


def test_a_held_event_is_written_when_the_file_ends_before_another_comes(tmp_path):
    recorder, run_id = TraceRecorder(tmp_path / "run.jsonl", None, time.monotonic), uuid.uuid4()
    recorder.begin(run_id, sys._getframe())
    recorder.pending = held_check(recorder, run_id)
    assert recorder.close() is None
    assert [e.kind for e in Trace.load(tmp_path / "run.jsonl").events] == ["finish_check"]
    assert recorder.pending is None
