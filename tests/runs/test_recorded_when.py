"""When a run was recorded: the header's recorded_at (stamped by the writer, carried over from an import's
source), shown in `runs`; a trace from before it existed falls back, visibly, to its file's time."""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES, ROSE
from tracer.runs.catalogue import Catalogue
from tracer.runs.columns import recorded_cell
from tracer.runs.listing import list_runs
from tracer.trace.header import stamp_seconds, utc_stamp
from tracer.trace.importers import convert_all, write_conversion
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter

AG2 = Path(__file__).parents[1] / "data" / "langfuse" / "ag2-2026-03-09.json"
OLD_TIME = 1_700_000_000  # 2023-11-14: a file time no run of this test has


def row_for(folder: Path, name: str):
    listing = list_runs([folder], Catalogue.in_memory(), imports=True)
    (row,) = [r for r in listing.rows if Path(r.path).name == name]
    return row


def with_header(path: Path, **changes) -> None:
    lines = path.read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header.update(changes)
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")


def test_a_new_trace_says_when_it_began(tmp_path):
    before = int(time.time())
    with TraceWriter(tmp_path / "run.jsonl"):
        pass
    after = time.time()
    header, _events, _warning = load_trace(tmp_path / "run.jsonl")
    assert header.recorded_at is not None and header.recorded_at.endswith("Z")
    assert before <= stamp_seconds(header.recorded_at) <= after


def test_runs_shows_the_header_time_not_the_files(tmp_path):
    copy = tmp_path / "rose.jsonl"
    shutil.copy(ROSE, copy)
    with_header(copy, recorded_at="2026-03-09T10:15:00Z")
    os.utime(copy, (OLD_TIME, OLD_TIME))  # copied long after, by a tool that kept no time
    row = row_for(tmp_path, "rose.jsonl")
    assert row.recorded == datetime(2026, 3, 9, 10, 15, tzinfo=UTC).timestamp()
    assert not row.recorded_from_file and row.to_json()["recorded_from"] == "trace"
    assert not recorded_cell(row).startswith("~")


@pytest.mark.parametrize("stamp", [None, "not a date", "9999-12-31T00:00:00Z", "1970-01-01T00:00:00Z", ""])
def test_without_a_usable_stamp_the_files_time_is_shown_marked(tmp_path, stamp):
    copy = tmp_path / "rose.jsonl"
    shutil.copy(ROSE, copy)
    with_header(copy, recorded_at=stamp)
    os.utime(copy, (OLD_TIME, OLD_TIME))
    row = row_for(tmp_path, "rose.jsonl")
    assert row.outcome == "finished"  # a bad date loses nothing else
    assert row.recorded == OLD_TIME and row.recorded_from_file
    assert row.to_json()["recorded_from"] == "file"
    assert recorded_cell(row).startswith("~2023-11-1")


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.jsonl")), ids=lambda p: p.stem)
def test_every_shipped_fixture_says_when_it_was_recorded(path):
    header, _events, _warning = load_trace(path)
    assert stamp_seconds(header.recorded_at) is not None, f"{path.name}: stamp it (loopscope fixtures --rerecord)"


def test_an_import_keeps_when_the_source_run_began_not_when_it_was_converted(tmp_path):
    observations = json.loads(AG2.read_text("utf-8"))["observations"]
    first = min(stamp_seconds(o["startTime"]) for o in observations)  # what Langfuse recorded
    written = write_conversion(convert_all(AG2).pick(None), AG2, tmp_path / "ag2.jsonl")
    header, _events, _warning = load_trace(written)
    assert header.recorded_at == utc_stamp(first) == "2026-03-09T10:15:00Z"
    os.utime(written, (OLD_TIME, OLD_TIME))
    row = row_for(tmp_path, "ag2.jsonl")
    assert not row.recorded_from_file and row.recorded == first


def test_the_raw_export_listed_with_imports_has_its_own_time_too(tmp_path):
    shutil.copy(AG2, tmp_path / "ag2.json")
    os.utime(tmp_path / "ag2.json", (OLD_TIME, OLD_TIME))
    row = row_for(tmp_path, "ag2.json")
    assert row.recorded_at.startswith("2026-03-09") and not row.recorded_from_file


def test_times_that_are_no_dates_stay_out_of_the_header():
    assert utc_stamp(12.5) is None  # an importer's "any epoch": seconds since some start
    assert utc_stamp(float("nan")) is None
    assert utc_stamp(1e300) is None
    assert utc_stamp(1_764_612_675) == "2025-12-01T18:11:15Z"
