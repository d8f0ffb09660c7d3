"""Spans on the wire: OTLP/HTTP protobuf to a collector, or the OTLP JSON file format."""

from __future__ import annotations

import base64
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from .export import traces_url  # first: it names the [otel] extra when OpenTelemetry is missing

try:
    from google.protobuf.json_format import MessageToDict
    from google.protobuf.message import Message
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.trace import ReadableSpan
except ImportError as missing:  # protobuf or the OTLP exporter: both come with the [otel] extra
    raise ImportError(
        f"OTLP export needs OpenTelemetry's OTLP exporter ({missing.name} is not installed): "
        "pip install 'loopscope[otel]'",
        name=missing.name,
    ) from missing

_ID_KEYS = ("traceId", "spanId", "parentSpanId")


class OTLPExportError(Exception):
    """The collector could not be reached or refused the spans; the message is one line."""


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The OTLP JSON encoding (what a collector's file exporter writes and /v1/traces accepts as
    application/json): protobuf JSON with ids as hex, as the OTLP spec asks, and enums as numbers."""
    return request_json(encode_spans(spans))


def request_json(request: Message) -> dict[str, Any]:
    """An ExportTraceServiceRequest (as encoded for, or decoded from, the wire) as OTLP JSON."""
    document = MessageToDict(request, use_integers_for_enums=True)
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in _ID_KEYS:
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
    return document


def post_spans(endpoint: str, spans: Sequence[ReadableSpan], timeout: float = 10.0) -> int:
    """POST the spans as OTLP/HTTP protobuf; the HTTP status when accepted, else OTLPExportError."""
    url = traces_url(endpoint)
    body = encode_spans(spans).SerializeToString()
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/x-protobuf"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        detail = error.read(200).decode("utf-8", "replace").strip().splitlines()
        raise OTLPExportError(
            f"the collector at {url} refused the spans: HTTP {error.code} {error.reason}"
            + (f" ({detail[0]})" if detail else "")
        ) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise OTLPExportError(f"cannot reach the collector at {url}: {reason}") from None
