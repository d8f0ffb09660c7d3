"""The catalogue is a cache: rows come from it only while a file is unchanged, and whatever happens to the
catalogue file (deleted, damaged, someone else's, locked, read-only) the listing is the files' own."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from tests.helpers.small_fs import small_tmpfs
from tracer.runs import catalogue as catalogue_module
from tracer.runs.catalogue import Catalogue, chosen_location, default_location
from tracer.runs.listing import list_runs

SHIPPED = len(list(FIXTURES.rglob("*.jsonl")))  # the traces fixture copies every shipped fixture


def listed(folder, path=None, **options):
    location, owned = chosen_location(path)
    opened = Catalogue.open(location, owned)
    try:
        return list_runs([folder], opened, **options)
    finally:
        opened.close()


def outcomes(listing) -> dict[str, str]:
    """{file name: outcome} of the rows in the folder itself (not langchain/)."""
    return {Path(row.path).name: row.outcome for row in listing.rows if Path(row.path).parent.name == "traces"}


def test_the_second_listing_reads_nothing_and_lists_the_same_rows(traces):
    first = listed(traces)
    second = listed(traces)
    assert first.read == len(first.rows) == SHIPPED and first.cached == 0
    assert second.read == 0 and second.cached == SHIPPED
    assert second.rows == first.rows


def test_a_file_rewritten_to_the_same_size_and_mtime_is_read_again(traces):
    listed(traces)
    path = traces / "rose_pricing.jsonl"
    info = path.stat()
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"kind":"chain_end"', b'"kind":"chain_xnd"'))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # as `touch -r` or tar would put it back
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns
    again = listed(traces)
    assert again.read == 1
    row = next(r for r in again.rows if r.path == str(path))
    assert row.outcome == "unreadable" and "chain_xnd" in row.detail


def test_a_file_changed_within_the_racy_window_is_read_again_next_time(traces, monkeypatch):
    monkeypatch.setattr(catalogue_module, "RACY_NS", 3_600 * 10**9)  # everything was written "just now"
    listed(traces)
    assert listed(traces).read == SHIPPED


def test_removed_truncated_and_corrupted_traces_are_noticed_between_listings(traces):
    listed(traces)
    (traces / "rose_pricing.jsonl").unlink()
    truncated = traces / "invalid_tool.jsonl"
    truncated.write_bytes(truncated.read_bytes()[: truncated.stat().st_size // 2])
    corrupted = traces / "parallel_tools.jsonl"
    data = bytearray(corrupted.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 40] = b"\x00\xff garbage {{{ \x1b[31m" + b"#" * 20
    corrupted.write_bytes(bytes(data))
    emptied = traces / "rate_limit.jsonl"
    emptied.write_bytes(b"")
    again = listed(traces)
    found = outcomes(again)
    assert "rose_pricing.jsonl" not in found and len(again.rows) == SHIPPED - 1
    assert found["invalid_tool.jsonl"] == "truncated"
    assert found["parallel_tools.jsonl"] == "unreadable" and found["rate_limit.jsonl"] == "unreadable"
    reasons = {Path(r.path).name: r.detail for r in again.rows if Path(r.path).parent == traces}
    assert "not valid JSON" in reasons["parallel_tools.jsonl"] and "empty" in reasons["rate_limit.jsonl"]
    assert all("\n" not in reason and "\x1b" not in reason for reason in reasons.values())
    assert listed(traces).cached == SHIPPED - 1  # and the damage is remembered as it is, until the files change


def test_deleting_the_catalogue_loses_nothing(traces):
    first = listed(traces)
    default_location().unlink()
    again = listed(traces)
    assert again.read == SHIPPED and again.rows == first.rows


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"this is not a database at all" * 100),
        lambda path: path.write_bytes(path.read_bytes()[: path.stat().st_size // 3]),
        lambda path: path.write_bytes(path.read_bytes()[:100] + os.urandom(path.stat().st_size - 100)),
        lambda path: path.write_bytes(b""),
    ],
    ids=["garbage", "truncated", "scrambled", "emptied"],
)
def test_a_damaged_catalogue_is_rebuilt_never_trusted(traces, damage):
    first = listed(traces)
    damage(default_location())
    again = listed(traces)
    assert again.rows == first.rows
    assert listed(traces).cached == SHIPPED  # rebuilt, and in use again


def test_a_stored_row_that_does_not_validate_or_names_another_file_is_read_from_the_file(traces):
    first = listed(traces)
    with sqlite3.connect(default_location()) as db:
        db.execute("UPDATE runs SET row = '{\"outcome\": \"finished\"' WHERE path LIKE '%/traces/rose_pricing.jsonl'")
        other = db.execute("SELECT row FROM runs WHERE path LIKE '%tool_error_unhandled.jsonl'").fetchone()[0]
        db.execute("UPDATE runs SET row = ? WHERE path LIKE '%parse_error_on.jsonl'", (other,))
    again = listed(traces)
    assert again.read == 2 and again.rows == first.rows


def test_someone_elses_files_at_the_catalogue_path_are_never_touched(traces, tmp_path):
    theirs = tmp_path / "their.sqlite"
    with sqlite3.connect(theirs) as db:
        db.execute("CREATE TABLE orders (id INTEGER)")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes", "utf-8")
    for path in (theirs, notes):
        before = path.read_bytes()
        listing = listed(traces, path)
        assert len(listing.rows) == SHIPPED and "not" in listing.notes[0]
        assert path.read_bytes() == before


def test_a_catalogue_path_that_is_a_link_or_a_folder_is_refused(traces, tmp_path):
    target = tmp_path / "elsewhere.sqlite"
    target.write_bytes(b"")
    link = tmp_path / "link.sqlite"
    link.symlink_to(target)
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    for path in (link, folder):
        listing = listed(traces, path)
        assert len(listing.rows) == SHIPPED and "not a regular file" in listing.notes[0]
    assert target.read_bytes() == b""


def test_a_read_only_cache_lists_from_the_files(traces, own_cache, monkeypatch):
    with small_tmpfs(own_cache, read_only=True) as read_only:
        if read_only is None:  # not allowed to mount: a cache folder that cannot be made (a file is in the way)
            blocker = own_cache.parent / "blocker"
            blocker.write_text("", "utf-8")
            monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
        first = listed(traces)
        second = listed(traces)
    assert len(first.rows) == SHIPPED and "cannot be used" in first.notes[0]
    assert second.read == SHIPPED and second.rows == first.rows


def test_a_catalogue_another_loopscope_is_writing_is_waited_for_briefly_then_passed_by(traces, monkeypatch):
    listed(traces)
    shutil.copy(traces / "rose_pricing.jsonl", traces / "new.jsonl")
    monkeypatch.setattr(catalogue_module, "BUSY_WAIT", 0.1)
    holder = sqlite3.connect(default_location(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        listing = listed(traces)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(listing.rows) == SHIPPED + 1 and "busy" in listing.notes[0]
    assert listed(traces).read == 1  # the new trace was not kept while it was busy: read again, once


def test_a_folder_whose_name_extends_another_keeps_its_own_rows(traces, tmp_path):
    sibling = tmp_path / "traces2"
    shutil.copytree(traces, sibling)
    listed(traces)
    listed(sibling)
    assert listed(traces).cached == SHIPPED
    assert listed(sibling).cached == SHIPPED


def test_another_tools_export_is_passed_over_unless_imports_are_asked_for(traces):
    from tests.helpers.foreign_traces import write_otlp

    write_otlp(traces / "collector.jsonl")
    plain = listed(traces)
    assert plain.foreign == 1 and len(plain.rows) == SHIPPED
    imported = listed(traces, imports=True)
    assert len(imported.rows) == SHIPPED + 1
    assert next(r for r in imported.rows if r.path.endswith("collector.jsonl")).imported
    assert listed(traces).foreign == 1  # its stored row is not listed without --imports
