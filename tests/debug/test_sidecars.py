"""Sidecar files next to a trace are untrusted: planted links, FIFOs, giants and bad content never crash or hang."""

from __future__ import annotations

import io
import json
import os
import shutil

import numpy as np
import pytest

from tests.helpers.paths import ROSE
from tracer.cli import main
from tracer.debug.breakpoints import BreakpointSet
from tracer.trace.index import TraceIndex, _stamp, cache_path
from tracer.trace.reader import TraceFile

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.fixture
def trace(tmp_path):
    path = tmp_path / "rose.jsonl"
    shutil.copy(ROSE, path)
    return path


def sidecar(trace):
    return trace.with_name(trace.name + ".breakpoints.json")


def test_a_planted_symlink_is_neither_read_nor_written_through(trace, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text('{"format": "loopscope-breakpoints", "breakpoints": [{"spec": "kind=tool_end"}]}')
    before = victim.read_bytes()
    sidecar(trace).symlink_to(victim)
    breakpoints = BreakpointSet.for_trace(trace)
    assert len(breakpoints) == 0 and "symbolic link" in breakpoints.warning
    breakpoints.add("kind=llm_end")
    assert "not overwriting" in breakpoints.warning and victim.read_bytes() == before
    assert sidecar(trace).is_symlink()


def test_a_fifo_sidecar_does_not_hang_the_debugger(trace):
    os.mkfifo(sidecar(trace))
    breakpoints = BreakpointSet.for_trace(trace)  # an open() without O_NONBLOCK would wait forever here
    assert len(breakpoints) == 0 and "not a regular file" in breakpoints.warning


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"", "Expecting value"),
        (b"\xff\xfe", "not UTF-8"),
        (DEEP, "nested too deeply"),
        (
            b'{"format": "loopscope-breakpoints", "breakpoints": [{"spec": "kind=tool_end", "ignore": Infinity}]}',
            "Infinity is not allowed",
        ),
        (b'{"format": "loopscope-breakpoints", "breakpoints": {"spec": 1}}', "must be a list"),
        (b'{"format": "loopscope-breakpoints", "breakpoints": [{"spec": 7}]}', "ignored"),
        (
            b'{"format": "loopscope-breakpoints", "breakpoints": [{"spec": "iteration=' + b"9" * 5000 + b'"}]}',
            "whole number",
        ),
        (b" " * (2 << 20), "more than the"),
    ],
)
def test_bad_breakpoint_files_are_ignored_with_a_warning(trace, content, reason):
    sidecar(trace).write_bytes(content)
    breakpoints = BreakpointSet.for_trace(trace)
    assert len(breakpoints) == 0 and reason in breakpoints.warning and len(breakpoints.warning) < 400
    breakpoints.add("kind=tool_end")  # the next change rewrites it whole
    assert json.loads(sidecar(trace).read_text())["breakpoints"][0]["spec"] == "kind=tool_end"
    assert not [p for p in trace.parent.iterdir() if p.name.endswith(".tmp")]


def rose_index_cache(trace):
    with TraceFile(trace) as opened:
        assert TraceIndex.scan_and_cache(trace, len(opened)) is not None
        return len(opened)


def forged_cache(trace, **arrays):
    out = io.BytesIO()
    np.savez(out, **{"stamp": _stamp(trace), **arrays})
    return out.getvalue()


GOOD_SHAPES = json.dumps(
    [{"kind": "chain_start", "frames": ["invoke"], "file": "f", "line": 1, "function": "invoke", "tool": None}]
)


@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda trace, n: b"PK\x03\x04 not really a zip", "zip"),
        (lambda trace, n: b"", "ignored"),
        (
            lambda trace, n: forged_cache(
                trace, codes=np.zeros((n, 2), np.int32), iterations=np.zeros(n, np.int32), shapes=np.array(GOOD_SHAPES)
            ),
            "codes is not",
        ),
        (
            lambda trace, n: forged_cache(
                trace, codes=np.full(n, 7, np.int32), iterations=np.zeros(n, np.int32), shapes=np.array(GOOD_SHAPES)
            ),
            "points at no shape",
        ),
        (
            lambda trace, n: forged_cache(
                trace,
                codes=np.zeros(n, np.int32),
                iterations=np.zeros(n, np.int32),
                shapes=np.array('[{"kind": Infinity}]'),
            ),
            "Infinity",
        ),
        (
            lambda trace, n: forged_cache(
                trace, codes=np.zeros(n, np.int32), iterations=np.zeros(n, np.int32), shapes=np.array(DEEP.decode())
            ),
            "nested too deeply",
        ),
        (
            lambda trace, n: forged_cache(
                trace, codes=np.zeros(n, np.int32), iterations=np.arange(n)[::-1], shapes=np.array(GOOD_SHAPES)
            ),
            "backwards",
        ),
        (lambda trace, n: b"\0" * (2 << 20), "more than the"),
    ],
)
def test_a_bad_index_cache_means_rebuild_with_a_warning(trace, make, reason):
    total = rose_index_cache(trace)
    with open(cache_path(trace), "wb") as out:
        out.write(make(trace, total))
    index, problem = TraceIndex.load_cache(trace, total)
    assert index is None and reason in problem and "rebuilding" in problem


def test_another_traces_index_cache_is_not_used(trace, tmp_path):
    total = rose_index_cache(trace)
    other = tmp_path / "other.jsonl"
    shutil.copy2(trace, other)  # same size and mtime: only the file's identity tells them apart
    os.utime(other, ns=(os.stat(trace).st_atime_ns, os.stat(trace).st_mtime_ns))
    shutil.copy2(cache_path(trace), cache_path(other))
    assert TraceIndex.load_cache(other, total) == (None, None)
    assert TraceIndex.load_cache(trace, total)[0] is not None


def test_the_index_cache_is_not_written_through_a_planted_link(trace, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    os.symlink(victim, cache_path(trace))
    rose_index_cache(trace)
    assert victim.read_text() == "precious"


@pytest.mark.parametrize("make", [lambda p: os.mkfifo(p), lambda p: os.symlink("/dev/zero", p)])
def test_a_fifo_or_device_as_the_trace_is_a_one_line_error(tmp_path, capsys, make):
    path = tmp_path / "trace.jsonl"
    make(path)
    assert main(["verify", str(path)]) == 2
    assert "not a regular file" in capsys.readouterr().out
    assert main(["debug", str(path), "--print"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a regular file" in err
