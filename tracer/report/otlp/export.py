"""A run as OpenTelemetry spans (OpenInference conventions): offline from a trace, or live as OTelListener."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

from executor.events import EventBase

from ...trace import otel_mapping as om
from ...trace.redact import Redactor, default_redactor
from ...trace.transitions import Trace

try:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter, SpanExportResult
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from .spans import SpanBuilder
except ImportError as missing:  # pragma: no cover - exercised by a test that hides the package
    raise ImportError(
        f"OTLP export needs OpenTelemetry ({missing.name} is not installed): pip install 'loopscope[otel]'",
        name=missing.name,
    ) from missing


@functools.cache
def _resource(service_name: str) -> Resource:
    """Made once a process: Resource.create runs the SDK's detectors (OTEL_RESOURCE_ATTRIBUTES, the
    process) on a thread pool, which was a third of exporting a small trace."""
    return Resource.create({"service.name": service_name})


def _provider(service_name: str, processor: Any) -> TracerProvider:
    provider = TracerProvider(resource=_resource(service_name))
    provider.add_span_processor(processor)
    return provider


def spans_of(trace: Trace, redactor: Redactor | None = None, start_ns: int | None = None) -> list[ReadableSpan]:
    """A recorded run's spans. Times are the trace's own (t since start) on a wall clock that puts
    the last event at the file's modification time, unless `start_ns` says when it began."""
    if start_ns is None and trace.path is not None and trace.events:
        start_ns = max(0, os.stat(trace.path).st_mtime_ns - int(trace.events[-1].t * 1e9))  # not before 1970
    collected = InMemorySpanExporter()
    provider = _provider(om.SERVICE_NAME, SimpleSpanProcessor(collected))
    tracer = provider.get_tracer(om.SCOPE_NAME)
    scenario, agent = trace.scenario, trace.header.agent
    builder = SpanBuilder(
        tracer, redactor or default_redactor(), start_ns, agent_name=scenario or agent, scenario=scenario, agent=agent
    )
    for event in trace.events:
        builder(event)
    builder.finish()
    provider.shutdown()
    return list(collected.get_finished_spans())


class _ResultKeeper(SpanExporter):
    """Wraps the OTLP exporter to remember whether the collector took the last batch."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner, self.failures = inner, 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        result = self.inner.export(spans)
        self.failures += result is not SpanExportResult.SUCCESS
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)


class OTelListener:
    """A listener (`executor.invoke(inputs, listeners=[OTelListener("http://127.0.0.1:4318")])`) that
    sends the run as spans while it happens, through opentelemetry-sdk's BatchSpanProcessor.
    One listener is one run (its `loopscope.run_id`); `agent_name` names the agent in the spans.

    A collector that is down never stops the run: the batch fails in the background and
    `close()` returns a one-line error (write a TraceWriter too and nothing is lost)."""

    def __init__(
        self,
        endpoint: str | None = None,
        *,
        exporter: SpanExporter | None = None,
        redactor: Redactor | None = None,
        service_name: str = om.SERVICE_NAME,
        timeout: float = 5.0,
        agent_name: str | None = None,
    ) -> None:
        if exporter is None and endpoint is None:
            raise ValueError("OTelListener needs an endpoint (e.g. http://127.0.0.1:4318) or an exporter")
        self.url = traces_url(endpoint) if endpoint else None
        self.exporter = _ResultKeeper(exporter or _http_exporter(self.url or "", timeout))
        self.provider = _provider(service_name, BatchSpanProcessor(self.exporter))
        tracer = self.provider.get_tracer(om.SCOPE_NAME)
        self.builder = SpanBuilder(tracer, redactor or default_redactor(), agent_name=agent_name)

    def __call__(self, event: EventBase) -> None:
        self.builder(event)

    def close(self) -> str | None:
        """Send what is left; None when the collector took everything, else why not (one line)."""
        self.builder.finish()
        self.provider.force_flush()
        self.provider.shutdown()
        if self.exporter.failures:
            return f"the collector at {self.url or 'the exporter'} did not take {self.exporter.failures} batch(es) of spans"
        return None


def _http_exporter(url: str, timeout: float) -> SpanExporter:
    """The OTLP/HTTP exporter. Only a live listener sending to a collector needs it (requests,
    protobuf): spans_of and a listener given its own exporter never load it."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # late: as said above
    except ImportError as missing:
        raise ImportError(
            f"OTelListener needs the OTLP/HTTP exporter ({missing.name} is not installed): pip install 'loopscope[otel]'",
            name=missing.name,
        ) from missing
    return OTLPSpanExporter(endpoint=url, timeout=timeout)


def traces_url(endpoint: str) -> str:
    """An OTLP/HTTP base URL (http://host:4318) or the full traces URL; the full one either way."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/traces") else endpoint + "/v1/traces"
