"""An index cache's arrays read from its .npz bytes as untrusted: declared shapes, types and inflated sizes checked first."""

from __future__ import annotations

import io
import math
import zipfile
from typing import Any

from .numpy_on_use import np

# What save_cache writes, and the shape each array must have for a trace of `total` events.
_EXPECTED = ("stamp", "codes", "iterations", "shapes")


def _expected_shape(name: str, total: int) -> tuple[int, ...]:
    return {"stamp": (4,), "codes": (total,), "iterations": (total,), "shapes": ()}[name]


def read_index_archive(raw: bytes, limit: int, total: int) -> dict[str, Any]:
    """{name: array} of an index cache for a trace of `total` events; ValueError naming what is wrong.

    np.load would trust each .npy header: a 199-byte file declaring 2**40 elements allocates them,
    and the size cap on the file counts compressed bytes, not what they inflate to. So the zip's
    inflated sizes are summed and each header's shape and type checked against what this trace's
    index can be before any array is read; what is read is never more than the member holds.
    """
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
        inflated = sum(info.file_size for info in members.values())
        if inflated > limit:
            raise ValueError(f"it inflates to {inflated:,} bytes, more than the {limit:,} allowed")
        if set(members) != set(_EXPECTED):
            raise ValueError(f"it holds {sorted(members)!r:.200}, not {list(_EXPECTED)}")
        return {name: _read_member(archive, members[name], name, total) for name in _EXPECTED}


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, total: int) -> Any:
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(member)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(member)
        else:
            raise ValueError(f"{name} is an .npy of version {version}")
        if dtype.hasobject or dtype.kind not in ("U" if name == "shapes" else "iu"):
            raise ValueError(f"{name} holds {dtype}, not {'text' if name == 'shapes' else 'whole numbers'}")
        if shape != _expected_shape(name, total):
            raise ValueError(f"{name} is not of shape {_expected_shape(name, total)}: it declares {shape!r:.60}")
        size = math.prod(shape) * dtype.itemsize
        if size > info.file_size:  # more than the member holds: the header lies
            raise ValueError(f"{name} declares {size:,} bytes in a member of {info.file_size:,}")
        data = member.read(size)
    if len(data) != size:
        raise ValueError(f"{name} is cut short")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")
