"""Attacks on the catalogue (issue 34): a file dated past 2262, and another program's database named as the catalogue."""

from __future__ import annotations

import os
import sqlite3

from tests.runs.test_catalogue import SHIPPED, listed
from tracer.cli import main

YEAR_2300_NS = 10_413_792_000 * 10**9  # 2300-01-01, past what a signed 64-bit count of nanoseconds holds


def test_a_trace_dated_after_2262_is_listed_every_time_without_a_traceback(traces):
    path = traces / "rose_pricing.jsonl"
    os.utime(path, ns=(YEAR_2300_NS, YEAR_2300_NS))
    assert path.stat().st_mtime_ns > 2**63
    first = listed(traces)
    second = listed(traces)
    assert len(first.rows) == len(second.rows) == SHIPPED
    assert any(row.path == str(path) and row.outcome == "finished" for row in second.rows)
    assert second.read == 1  # a file from the future is never "settled": read again, never stored


def test_runs_command_on_a_future_dated_trace_exits_cleanly(traces, capsys):
    os.utime(traces / "rose_pricing.jsonl", ns=(YEAR_2300_NS, YEAR_2300_NS))
    assert main(["runs", str(traces), "--json"]) == 0
    assert "rose_pricing.jsonl" in capsys.readouterr().out


def _their_database(path) -> bytes:
    """A database of another program that happens to use the table names `runs` and `meta`."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('owner', 'payroll')")
        db.execute("CREATE TABLE runs (path TEXT, size INTEGER)")
        db.execute("INSERT INTO runs VALUES ('/srv/payroll/march', 12)")
    db.close()
    return path.read_bytes()


def test_another_programs_runs_and_meta_tables_are_never_dropped(traces, tmp_path):
    theirs = tmp_path / "other.db"
    before = _their_database(theirs)
    listing = listed(traces, theirs)
    assert len(listing.rows) == SHIPPED
    assert len(listing.notes) == 1 and "not a loopscope catalogue" in listing.notes[0]
    assert "\n" not in listing.notes[0]
    assert theirs.read_bytes() == before
    with sqlite3.connect(theirs) as db:
        assert db.execute("SELECT * FROM runs").fetchall() == [("/srv/payroll/march", 12)]
    db.close()


def test_a_database_with_a_meta_format_of_its_own_is_not_replaced(traces, tmp_path):
    theirs = tmp_path / "tool.db"
    with sqlite3.connect(theirs) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format', 'someone-elses/1')")
    db.close()
    before = theirs.read_bytes()
    listed(traces, theirs)
    assert theirs.read_bytes() == before


def test_a_catalogue_loopscope_made_at_a_named_path_is_kept_and_reused(traces, tmp_path):
    ours = tmp_path / "mine.db"
    first = listed(traces, ours)
    second = listed(traces, ours)
    assert not first.notes and not second.notes
    assert second.cached == SHIPPED


def test_an_empty_sqlite_file_at_a_named_path_becomes_the_catalogue(traces, tmp_path):
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    listed(traces, empty)
    assert listed(traces, empty).cached == SHIPPED
