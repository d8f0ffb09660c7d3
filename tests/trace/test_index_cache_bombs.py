"""An index cache (.index.npz) is read as untrusted: declared shapes and inflated sizes are checked before a byte
of an array is allocated, so a tiny file declaring a giant array or a small one inflating to gigabytes is rebuilt."""

from __future__ import annotations

import io
import shutil
import tracemalloc
import zipfile

import numpy as np
import pytest

from tests.helpers.paths import ROSE
from tracer.trace import index as trace_index
from tracer.trace.index import TraceIndex, cache_path
from tracer.trace.reader import TraceFile


@pytest.fixture
def trace(tmp_path):
    path = tmp_path / "rose.jsonl"
    shutil.copy(ROSE, path)
    return path


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def _npy_declaring(shape: tuple[int, ...], dtype: str = "<i4") -> bytes:
    """An .npy whose header declares `shape` and which holds no data at all."""
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": dtype, "fortran_order": False, "shape": shape})
    return out.getvalue()


def _zipped(members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name + ".npy", data)
    return out.getvalue()


def _cached(trace) -> int:
    with TraceFile(trace) as opened:
        assert TraceIndex.scan_and_cache(trace, len(opened)) is not None
        return len(opened)


def _members_of_the_real_cache(trace) -> dict[str, bytes]:
    with zipfile.ZipFile(cache_path(trace)) as archive:
        return {info.filename.removesuffix(".npy"): archive.read(info) for info in archive.infolist()}


def test_a_tiny_cache_declaring_a_2_to_the_40_element_array_is_rebuilt_without_allocating_it(trace):
    total = _cached(trace)
    members = _members_of_the_real_cache(trace)
    members["codes"] = _npy_declaring((2**40,))
    bomb = _zipped(members)
    with open(cache_path(trace), "wb") as out:
        out.write(bomb)
    tracemalloc.start()
    try:
        index, problem = TraceIndex.load_cache(trace, total)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert index is None and "rebuilding" in problem and "codes" in problem
    assert peak < 8 << 20


def test_a_small_cache_that_inflates_past_the_cap_is_rebuilt_without_inflating_it(trace):
    total = _cached(trace)
    members = _members_of_the_real_cache(trace)
    members["padding"] = _npy(np.zeros(64 << 20, np.uint8))  # 64 MB of zeros: ~64 KB deflated
    bomb = _zipped(members, zipfile.ZIP_DEFLATED)
    limit = trace_index.MAX_CACHE_BYTES_PER_EVENT * total + (1 << 20)
    assert len(bomb) < limit  # passes a cap that counts the file's own bytes
    with open(cache_path(trace), "wb") as out:
        out.write(bomb)
    tracemalloc.start()
    try:
        index, problem = TraceIndex.load_cache(trace, total)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert index is None and "inflates to" in problem and "rebuilding" in problem
    assert peak < 8 << 20


@pytest.mark.parametrize(
    "name, replacement, reason",
    [
        ("iterations", _npy_declaring((10**6,)), "iterations"),  # more entries than the trace has events
        ("codes", _npy_declaring((4,), "|O"), "codes"),  # objects would need pickle
        ("stamp", _npy_declaring((2**33,), "<i8"), "stamp"),
        ("shapes", _npy_declaring((), "<U100000000"), "shapes"),  # a 400 MB string declared in a few bytes
    ],
)
def test_a_declared_shape_or_type_that_cannot_be_ours_is_refused_before_reading(trace, name, replacement, reason):
    total = _cached(trace)
    members = _members_of_the_real_cache(trace)
    members[name] = replacement
    with open(cache_path(trace), "wb") as out:
        out.write(_zipped(members))
    index, problem = TraceIndex.load_cache(trace, total)
    assert index is None and reason in problem and "rebuilding" in problem and "\n" not in problem


def test_the_cache_loopscope_writes_is_still_used(trace):
    total = _cached(trace)
    index, problem = TraceIndex.load_cache(trace, total)
    assert problem is None and index is not None and len(index) == total
