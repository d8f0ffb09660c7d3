"""A small trace's index (Python arrays) and a big one's (numpy arrays) answer every question alike."""

from __future__ import annotations

import json
import subprocess
import sys
from array import array

import pytest

import tracer.trace.index as trace_index
from executor import ManualClock, ScriptedModel
from tests.helpers.paths import FIXTURES, ROSE
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile
from tutorials.rose_pricing import SCENARIO

TRACES = sorted(FIXTURES.glob("*.jsonl"))


def answers(index: TraceIndex) -> dict:
    """Everything the debugger asks an index, for every position, kind and shape code."""
    total = len(index)
    kinds = sorted({shape.kind for shape in index.shapes}) + ["no_such_kind"]
    found = {
        "shapes": [index.shape(p) for p in range(total)],
        "iterations": [index.iteration(p) for p in range(total)],
        "codes": index.shape_codes(0, total).tolist(),
        "iteration_column": index.iterations(0, total).tolist(),
        "tail": index.shape_codes(total // 2, total).tolist(),
        "depth": index.column("depth").tolist(),
        "first": [index.first_with_code(code) for code in range(len(index.shapes) + 1)],
        "starts": [index.iteration_start(p) for p in range(total)],
    }
    for kind in kinds:
        positions = index.positions(kind)
        found[kind] = (
            positions.tolist(),
            positions.dtype.kind,
            index.position_list(kind),
            index.count(kind),
            [index.last_before(kind, p) for p in range(total)],
            [index.last_before(kind, p, lo=p // 2) for p in range(total)],
            [index.count_before(kind, p) for p in range(total)],
        )
    return found


def numpy_built(trace: TraceFile, monkeypatch) -> TraceIndex:
    with monkeypatch.context() as patch:
        patch.setattr(trace_index, "SMALL_INDEX", -1)  # every trace counts as big: scanned into numpy
        index = TraceIndex.build(trace)
    assert not isinstance(index._codes, array)
    return index


@pytest.mark.parametrize("path", TRACES, ids=[p.stem for p in TRACES])
def test_python_and_numpy_arrays_answer_alike_for_every_fixture(path, monkeypatch):
    with TraceFile(path) as trace:
        small = TraceIndex.build(trace)
        assert isinstance(small._codes, array)
        assert answers(small) == answers(numpy_built(trace, monkeypatch))


def test_a_cached_index_the_fallback_build_and_a_live_index_answer_alike(tmp_path, monkeypatch):
    copy = tmp_path / "rose.jsonl"
    copy.write_bytes(ROSE.read_bytes())
    reordered = tmp_path / "reordered.jsonl"  # reversed keys defeat the fast scan: built event by event
    lines = ROSE.read_text(encoding="utf-8").splitlines()
    reordered.write_text(
        "\n".join([lines[0]] + [json.dumps(dict(reversed(list(json.loads(line).items())))) for line in lines[1:]])
        + "\n",
        encoding="utf-8",
    )
    with TraceFile(copy) as trace, TraceFile(reordered) as other:
        expected = answers(TraceIndex.build(trace))
        TraceIndex.scan_and_cache(copy, len(trace))
        assert answers(TraceIndex.cached(copy, len(trace))) == expected
        assert answers(TraceIndex.build(other)) == expected
    live = TraceIndex()
    for event in TraceFile(ROSE):
        live.append(event)
        answers(live)  # asked while it grows: the numpy copies must follow
    assert answers(live) == expected


def test_a_scanned_numpy_index_can_still_grow(monkeypatch):
    with TraceFile(ROSE) as trace:
        grown = numpy_built(trace, monkeypatch)
        grown.append(trace[0])
        expected = TraceIndex.build(trace)
        expected.append(trace[0])
        assert answers(grown) == answers(expected)


@pytest.mark.slow  # a fresh interpreter
def test_a_small_index_loads_numpy_only_when_asked_for_arrays():
    probe = (
        f"import sys\nfrom tracer.trace.index import TraceIndex\nfrom tracer.trace.reader import TraceFile\n"
        f"index = TraceIndex.build(TraceFile({str(ROSE)!r}))\n"
        "asked = (index.kind(3), index.iteration(12), index.last_before('llm_start', 11), index.count('step'),"
        " index.count_before('step', 16), index.iteration_start(12), index.position_list('finish_check'),"
        " index.first_with_code(2))\n"
        "before = 'numpy' in sys.modules\nindex.positions('step')\n"
        "print(asked, before, 'numpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split()[-2:] == ["False", "True"], done.stdout
    assert done.stdout.startswith("('agent_action', 2, 8, 2, 2, 8, [7, 17, 21], 2)")


def test_the_live_run_scenario_matches_the_fixture_it_was_recorded_as():
    # The live case above appends the fixture's events; a real live run appends the executor's own.
    events = []
    SCENARIO.executor(
        ScriptedModel(SCENARIO.replies), clock=ManualClock(tick=0.001), run_id_factory=lambda: "live"
    ).invoke(SCENARIO.inputs(), [events.append])
    live = TraceIndex()
    for event in events:
        live.append(event)
    with TraceFile(ROSE) as trace:
        assert answers(live) == answers(TraceIndex.build(trace))
