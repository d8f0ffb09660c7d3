"""Defensive extraction: JSONPath expressions tried in order on a tool's answer, a match that is JSON text decoded again.

A path that finds several nodes (`$.data.results[*].name`) answers with all of them, a list in document
order, and says how many: never silently the first. Different vendors' servers wrap the same answer differently ({"pages": [...]}, {"data": {"pages": [...]}},
a chat completion whose message content is the JSON as text...). Rather than one if/else per vendor, a list
of expressions is probed in order and the first that finds something wins; a miss says every expression
tried and what the answer looked like, so the next vendor's shape is one more line in the list.
The expressions are RFC 9535 JSONPath, evaluated by python-jsonpath (imported only when a tool extracts).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

NESTED_DEPTH = 2  # how many times a JSON-text match is decoded and probed again
SHAPE_CHARS = 300  # an outline of the answer on a miss, cut to this


@dataclass(frozen=True)
class Extraction:
    """What probing found: the value (None on a miss), the expressions tried, the one that matched."""

    value: Any
    paths: list[str]
    matched: str | None
    decoded: bool
    shape: str | None
    count: int = 1  # the nodes the matching expression found: more than one, and the value is the list of them


def checked_paths(paths: Sequence[str] | str, where: str) -> tuple[str, ...]:
    """The expressions, each parsed once now so that a typo is a one-line error before any run."""
    # Late: the JSONPath library is loaded only by tools that extract (an optional extra, loopscope[mcp]).
    import jsonpath

    if isinstance(paths, str):
        paths = [paths]
    checked = []
    for path in paths:
        if not isinstance(path, str) or not path.strip():
            raise ValueError(f"{where}: each extract path must be a JSONPath string like '$.pages', got {path!r}")
        try:
            jsonpath.compile(path)
        except jsonpath.JSONPathError as error:
            reason = str(error).splitlines()[0]
            raise ValueError(f"{where}: extract path {path!r} is not JSONPath ({reason})") from None
        checked.append(path)
    if not checked:
        raise ValueError(f"{where}: extract needs at least one JSONPath expression, e.g. ['$.pages', '$.data.pages']")
    return tuple(checked)


def extract(document: Any, paths: Sequence[str]) -> Extraction:
    """Probe `document` with each expression in order; the first that finds anything wins, with
    every node it found (a list when there are several).

    A match that is JSON text (a string holding an object or an array) is decoded, and the
    decoded value is probed again with the same expressions: a deeper match wins ("$.a → $.b"),
    otherwise the decoded value is the answer. Any other match is the answer as it is.
    """
    found = _probe(document, paths, NESTED_DEPTH)
    if found is None:
        return Extraction(None, list(paths), None, False, outline(document))
    value, matched, decoded, count = found
    tried = list(paths[: paths.index(matched.split(" → ")[0]) + 1])
    return Extraction(value, tried, matched, decoded, None, count)


def _probe(document: Any, paths: Sequence[str], depth: int) -> tuple[Any, str, bool, int] | None:
    import jsonpath  # late: see checked_paths

    for path in paths:
        matches = jsonpath.findall(path, document)
        if not matches:
            continue
        if len(matches) > 1:  # a wildcard or a filter: every node it found, never only the first
            return list(matches), path, False, len(matches)
        candidate = matches[0]
        inner = _json_text(candidate) if depth > 0 else None
        if inner is None:
            return candidate, path, False, 1
        deeper = _probe(inner[0], paths, depth - 1)
        if deeper is not None:
            value, matched, _, count = deeper
            return value, f"{path} → {matched}", True, count
        return inner[0], path, True, 1
    return None


def _json_text(value: Any) -> tuple[Any] | None:
    """(the decoded value,) when `value` is a string holding a JSON object or array; None otherwise."""
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return None
    try:
        return (json.loads(value),)
    except ValueError:
        return None


def outline(value: Any, budget: int = SHAPE_CHARS) -> str:
    """What an answer looked like, without its data: keys, value types and list lengths."""
    text = _outline(value, 3)
    return text if len(text) <= budget else text[: budget - 1] + "…"


def _outline(value: Any, depth: int) -> str:
    if isinstance(value, dict):
        if depth == 0:
            return "{…}"
        keys = list(value)[:8]
        parts = [f"{json.dumps(str(key), ensure_ascii=False)}: {_outline(value[key], depth - 1)}" for key in keys]
        return "{" + ", ".join(parts) + (", …" if len(value) > len(keys) else "") + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return f"[{_outline(value[0], depth - 1) if depth else '…'}] ×{len(value)}"
    if isinstance(value, str):
        return f"text({len(value)})" if _json_text(value) is None else f"JSON text({len(value)})"
    return "null" if value is None else type(value).__name__
