"""Corrupt and hostile files in a folder of traces: each is a row saying in one line why it cannot be read,
the listing never hangs or crashes, and nothing in a file reaches the terminal as an escape."""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path

from tests.helpers.paths import ROSE
from tracer.runs.catalogue import Catalogue
from tracer.runs.listing import list_runs

HEADER = json.dumps({"format": "loopscope-trace", "schema_version": 1, "scenario": "x"})
ROSE_LINES = ROSE.read_text("utf-8").splitlines(keepends=True)


def listing_of(folder: Path, timeout: float = 60.0):
    """list_runs in a thread, failing (not hanging) if it does not come back."""
    found: list = []
    worker = threading.Thread(target=lambda: found.append(list_runs([folder], Catalogue.in_memory())), daemon=True)
    worker.start()
    worker.join(timeout)
    assert found, "the listing hung"
    return found[0]


def reasons(listing) -> dict[str, str]:
    return {Path(row.path).name: row.detail for row in listing.rows if row.outcome == "unreadable"}


def write(folder: Path, name: str, content: bytes | str) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def test_each_broken_file_is_one_unreadable_row_with_its_reason(tmp_path):
    write(tmp_path, "empty.jsonl", b"")
    write(tmp_path, "not_json.jsonl", "hello, this is not json\nnor is this\n")
    noise = random.Random(2026).randbytes(4096)  # seeded: the same bytes on every run
    write(tmp_path, "binary.jsonl", noise)
    # Binary that happens to start with a bracket once passed for another tool's pretty-printed JSON
    # and vanished from the listing (CI met it with os.urandom one run in a few hundred).
    write(tmp_path, "binary_bracket.jsonl", b"\r[d\xf1\xb9#\x16\xb0!\xbf" + noise)
    write(tmp_path, "future.jsonl", json.dumps({"format": "loopscope-trace", "schema_version": 99}) + "\n")
    write(
        tmp_path,
        "bad_event.jsonl",
        "".join(ROSE_LINES[:5]) + '{"seq": 4, "kind": "nonsense"}\n' + "".join(ROSE_LINES[6:]),
    )
    write(tmp_path, "deep.jsonl", HEADER + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    write(
        tmp_path,
        "forward_base.jsonl",
        "".join(ROSE_LINES[:2]) + ROSE_LINES[2].replace('"model"', '"prompt_base":50,"prompt_append":"x","model"', 1),
    )
    write(tmp_path, "fine.jsonl", "".join(ROSE_LINES))
    listing = listing_of(tmp_path)
    found = reasons(listing)
    assert set(found) == {
        "empty.jsonl",
        "not_json.jsonl",
        "binary.jsonl",
        "binary_bracket.jsonl",
        "future.jsonl",
        "bad_event.jsonl",
        "deep.jsonl",
        "forward_base.jsonl",
    }
    assert "empty" in found["empty.jsonl"]
    assert "not a loopscope trace" in found["not_json.jsonl"]
    assert "schema_version 99" in found["future.jsonl"]
    assert "line 6" in found["bad_event.jsonl"] and "nonsense" in found["bad_event.jsonl"]
    assert "prompt_base" in found["forward_base.jsonl"]
    for reason in found.values():
        assert reason and "\n" not in reason and len(reason) <= 300
        assert str(tmp_path) not in reason  # the path is in its own column
    assert [row.outcome for row in listing.rows if row.path.endswith("fine.jsonl")] == ["finished"]


def test_a_fifo_named_like_a_trace_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    write(tmp_path, "fine.jsonl", "".join(ROSE_LINES))
    found = reasons(listing_of(tmp_path, timeout=20))
    assert "not a regular file" in found["pipe.jsonl"]


def test_links_to_folders_are_not_followed_and_dangling_links_are_said(tmp_path):
    inner = tmp_path / "inner"
    inner.mkdir()
    write(inner, "fine.jsonl", "".join(ROSE_LINES))
    (inner / "loop").symlink_to(tmp_path)  # a folder that contains itself
    (tmp_path / "dangling.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    listing = listing_of(tmp_path)
    assert [Path(row.path).name for row in listing.rows] == ["fine.jsonl"]
    assert any("dangling.jsonl" in note for note in listing.notes)


def test_escapes_and_controls_in_a_trace_never_reach_a_row(tmp_path):
    hostile = "\x1b]52;c;cGF5bG9hZA==\x07\x1b[2J\u202eevil\r\nname"
    header = json.dumps({"format": "loopscope-trace", "schema_version": 1, "scenario": hostile, "agent": hostile})
    lines = [header + "\n", *ROSE_LINES[1:-1]]
    error = {**json.loads(ROSE_LINES[-1]), "kind": "chain_error", "error_type": hostile, "message": hostile}
    error.pop("outputs")
    lines.append(json.dumps(error) + "\n")
    write(tmp_path, "hostile.jsonl", "".join(lines))
    (row,) = listing_of(tmp_path).rows
    assert row.outcome == "error"
    for text in (row.name, row.detail):
        assert not any(ord(char) < 32 or 0x7F <= ord(char) < 0xA0 or char == "\u202e" for char in text), text


def test_hidden_folders_and_environments_are_not_walked_unless_named(tmp_path):
    for folder in (".git", ".venv", "node_modules", "__pycache__", "visible"):
        (tmp_path / folder).mkdir()
        write(tmp_path / folder, "run.jsonl", "".join(ROSE_LINES))
    assert [Path(r.path).parent.name for r in listing_of(tmp_path).rows] == ["visible"]
    assert len(listing_of(tmp_path / ".venv").rows) == 1


def test_a_recording_interrupted_after_its_last_event_is_still_marked_interrupted(tmp_path):
    """Ctrl-C after chain_end (while the trace was being closed) keeps a whole run as .interrupted: the
    listing says it was interrupted, and what its events say."""
    write(tmp_path, "run.jsonl.interrupted", "".join(ROSE_LINES))
    write(tmp_path, "run.2.jsonl.interrupted", "".join(ROSE_LINES[:8]))
    rows = {Path(row.path).name: row for row in listing_of(tmp_path).rows}
    whole, cut = rows["run.jsonl.interrupted"], rows["run.2.jsonl.interrupted"]
    assert (whole.outcome, cut.outcome) == ("interrupted", "interrupted")
    assert whole.detail.startswith("the recording was interrupted") and "its events end finished" in whole.detail
    assert cut.detail.startswith("the recording was interrupted") and "no chain_end" in cut.detail


def test_what_an_unfinished_recording_keeps_is_listed_and_a_partial_one_is_not(tmp_path):
    write(tmp_path, "run.jsonl.interrupted", "".join(ROSE_LINES[:8]))
    write(tmp_path, "run.jsonl.failed", "".join(ROSE_LINES[:4]) + ROSE_LINES[4][:20])
    write(tmp_path, "run.jsonl.x1y2.partial", "".join(ROSE_LINES[:8]))
    found = {Path(row.path).name: row.outcome for row in listing_of(tmp_path).rows}
    assert found == {"run.jsonl.interrupted": "interrupted", "run.jsonl.failed": "truncated"}
