"""Exported spans read back as a backend reads them: OTLP JSON or decoded protobuf, a tree by parent_span_id, lists unflattened."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.helpers.otlp_receiver import ReceivedSpan


def _value(value: dict[str, Any]) -> Any:
    kind, inner = next(iter(value.items()))
    if kind == "arrayValue":
        return [_value(item) for item in inner.get("values", [])]
    if kind == "intValue":
        return int(inner)
    return inner


def spans_of_document(document: dict[str, Any]) -> list[ReceivedSpan]:
    """The spans of an OTLP JSON document, in the shape the test receiver decodes the protobuf into."""
    found = []
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                attributes = {a["key"]: _value(a["value"]) for a in span.get("attributes", [])}
                events = [
                    (e["name"], int(e["timeUnixNano"]), {a["key"]: _value(a["value"]) for a in e.get("attributes", [])})
                    for e in span.get("events", [])
                ]
                status = span.get("status", {})
                found.append(
                    ReceivedSpan(
                        span["name"],
                        attributes.get("openinference.span.kind", ""),
                        span["spanId"],
                        span.get("parentSpanId", ""),
                        span["traceId"],
                        int(span["startTimeUnixNano"]),
                        int(span["endTimeUnixNano"]),
                        attributes,
                        events,
                        status.get("code", 0),
                        status.get("message", ""),
                    )
                )
    return found


@dataclass
class SpanTree:
    """The tree a trace UI (Phoenix, Jaeger) draws: each span under the span its parent_span_id names;
    a span without one, or whose parent is not in the trace, is drawn as a root."""

    spans: list[ReceivedSpan]

    def __post_init__(self) -> None:
        self.by_id = {span.span_id: span for span in self.spans}
        assert len(self.by_id) == len(self.spans), "two spans share an id"

    def parent(self, span: ReceivedSpan) -> ReceivedSpan | None:
        return self.by_id.get(span.parent_id) if span.parent_id else None

    @property
    def roots(self) -> list[ReceivedSpan]:
        return [span for span in self.spans if self.parent(span) is None]

    def children(self, span: ReceivedSpan) -> list[ReceivedSpan]:
        return sorted((s for s in self.spans if s.parent_id == span.span_id), key=lambda s: (s.start, s.end))

    def ancestors(self, span: ReceivedSpan) -> list[ReceivedSpan]:
        found, parent = [], self.parent(span)
        while parent is not None:
            found.append(parent)
            parent = self.parent(parent)
        return found

    def of_kind(self, kind: str) -> list[ReceivedSpan]:
        return sorted((s for s in self.spans if s.kind == kind), key=lambda s: s.start)


def unflatten(attributes: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """`prefix.N.rest` attributes as a list (a backend turns them into one): the indices must run 0..N-1."""
    found: dict[int, dict[str, Any]] = {}
    pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.(.+)")
    for key, value in attributes.items():
        matched = pattern.fullmatch(key)
        if matched:
            found.setdefault(int(matched[1]), {})[matched[2]] = value
    assert sorted(found) == list(range(len(found))), f"{prefix} indices are not 0..{len(found) - 1}: {sorted(found)}"
    return [found[index] for index in range(len(found))]
