"""A tiny OTLP/HTTP receiver on 127.0.0.1 for tests: decodes each POST /v1/traces with opentelemetry-proto."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass
class ReceivedSpan:
    name: str
    kind: str  # the OpenInference kind attribute
    span_id: str
    parent_id: str
    trace_id: str
    start: int
    end: int
    attributes: dict[str, Any]
    events: list[tuple[str, int, dict[str, Any]]]
    status_code: int
    status_message: str = ""


@dataclass
class OTLPReceiver:
    refuse_with: int | None = None  # answer every POST with this HTTP status instead
    bodies: list[bytes] = field(default_factory=list)
    spans: list[ReceivedSpan] = field(default_factory=list)

    def __enter__(self) -> OTLPReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path != "/v1/traces" or receiver.refuse_with:
                    self.send_response(receiver.refuse_with or 404)
                    self.end_headers()
                    self.wfile.write(b"not today")
                    return
                receiver.bodies.append(body)
                receiver.spans += decode(body)
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _value(any_value: Any) -> Any:
    which = any_value.WhichOneof("value")
    if which == "array_value":
        return [_value(item) for item in any_value.array_value.values]
    return getattr(any_value, which) if which else None


def decode(body: bytes) -> list[ReceivedSpan]:
    request = ExportTraceServiceRequest.FromString(body)
    found = []
    for resource in request.resource_spans:
        for scope in resource.scope_spans:
            for span in scope.spans:
                attributes = {a.key: _value(a.value) for a in span.attributes}
                events = [
                    (e.name, e.time_unix_nano, {a.key: _value(a.value) for a in e.attributes}) for e in span.events
                ]
                found.append(
                    ReceivedSpan(
                        span.name,
                        attributes.get("openinference.span.kind", ""),
                        span.span_id.hex(),
                        span.parent_span_id.hex(),
                        span.trace_id.hex(),
                        span.start_time_unix_nano,
                        span.end_time_unix_nano,
                        attributes,
                        events,
                        span.status.code,
                        span.status.message,
                    )
                )
    return found
