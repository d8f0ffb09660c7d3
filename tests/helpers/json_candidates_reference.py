"""Candidate search as it was before the linear rewrite (decode from every bracket): the comparison reference."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from executor.agents.structured_output import _FENCE

# Quadratic: each failed decode counts the lines before its start, so callers keep the inputs small.


def json_candidates_reference(text: str) -> Iterator[Any]:
    for match in _FENCE.finditer(text):
        if match.group(1).lower() in ("", "json", "json5", "javascript"):
            yield from _decoded(match.group(2).strip())
    yield from _decoded(text.strip())
    decoder = json.JSONDecoder()
    for at, char in enumerate(text):
        if char in "{[":
            try:
                yield decoder.raw_decode(text, at)[0]
            except json.JSONDecodeError:
                continue


def _decoded(text: str) -> Iterator[Any]:
    try:
        yield json.loads(text)
    except json.JSONDecodeError:
        return
