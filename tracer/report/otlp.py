"""A run as OpenTelemetry spans (OpenInference conventions): offline from a trace, or live as OTelListener."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from typing import Any, TypeVar, cast

from executor.events import Event, EventBase

from ..trace import otel_mapping as om
from ..trace.line_encoder import pydantic_json
from ..trace.redact import Redactor, default_redactor
from ..trace.transitions import Trace

try:
    from opentelemetry import trace as otel_trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter, SpanExportResult
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import Status, StatusCode
except ImportError as missing:  # pragma: no cover - exercised by a test that hides the package
    raise ImportError(
        f"OTLP export needs OpenTelemetry ({missing.name} is not installed): pip install 'loopscope[otel]'"
    ) from missing

# A lone surrogate (half a UTF-16 pair, as text read with errors="surrogateescape" holds) cannot be
# UTF-8, which OTLP strings must be: span names and attributes carry U+FFFD in its place, while the
# event's own JSON (om.EVENT_JSON) keeps it \u-escaped, as the trace file does, so an import is exact.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

_TOKEN_KEYS = {
    om.LLM_TOKEN_COUNT_PROMPT: ("prompt_tokens", "input_tokens"),
    om.LLM_TOKEN_COUNT_COMPLETION: ("completion_tokens", "output_tokens"),
    om.LLM_TOKEN_COUNT_TOTAL: ("total_tokens",),
}


_AnyEvent = TypeVar("_AnyEvent", bound=EventBase)


def redacted(event: _AnyEvent, redactor: Redactor) -> _AnyEvent:
    """The event as it may leave the machine: secrets replaced, exactly as TraceWriter does on disk."""
    data = event.model_dump(mode="json")
    if not redactor.might_contain_secret(json.dumps(data, ensure_ascii=False)):
        return event
    return type(event).model_validate(redactor.redact(data))


class SpanBuilder:
    """Feeds events to an OpenTelemetry tracer: the run is the AGENT root, each round a CHAIN span
    under it, model calls LLM spans and tool runs TOOL spans under the innermost open span (so the
    calculator's own model call sits inside its tool), every other event a span event."""

    def __init__(self, tracer: Any, redactor: Redactor, start_ns: int | None = None) -> None:
        self.tracer, self.redactor, self.start_ns = tracer, redactor, start_ns
        self.open: list[tuple[str, Any]] = []  # (OpenInference kind, span), outermost first
        self.round: Any = None
        self.round_iteration = 0
        self.last_ns = 0

    def __call__(self, listened: EventBase) -> None:
        # A listener is handed EventBase; every event the executor or a reader makes is one of the
        # union's classes, so comparing kinds below narrows it (until executor's Listener types it).
        event = cast(Event, redacted(listened, self.redactor))
        if self.start_ns is None:
            self.start_ns = time.time_ns() - int(event.t * 1e9)
        now = self.last_ns = self.start_ns + int(event.t * 1e9)
        if event.kind not in ("chain_start", "chain_end", "chain_error") and event.iteration != self.round_iteration:
            self._next_round(event.iteration, now)
        if event.kind in ("chain_end", "chain_error"):
            self._end_round(now)  # the run's end belongs to the root span, not the last round
        opened = om.OPENS.get(event.kind)
        if opened is not None:
            self._open(opened, event, now)
        target = self.open[-1][1] if self.open else None
        if target is not None:  # every event, lossless: an importer rebuilds the run from these
            target.add_event(event.kind, {om.EVENT_JSON: pydantic_json(event).decode("utf-8")}, timestamp=now)
        closed = om.CLOSES.get(event.kind)
        if closed is not None:
            self._close(closed, event, now)

    def _next_round(self, iteration: int, now: int) -> None:
        self._end_round(now)
        if iteration >= 1 and self.open:
            self.round = self._start(om.ROUND_SPAN_NAME, om.CHAIN, now, {om.ITERATION: iteration})
            self.open.append((om.CHAIN, self.round))
        self.round_iteration = iteration

    def _end_round(self, now: int) -> None:
        if self.round is not None:
            self.open = [(kind, span) for kind, span in self.open if span is not self.round]
            self.round.end(end_time=now)
            self.round = None

    def _start(self, name: str, kind: str, now: int, attributes: dict[str, Any]) -> Any:
        parent = self.open[-1][1] if self.open else None
        context = otel_trace.set_span_in_context(parent) if parent is not None else None
        return self.tracer.start_span(
            utf8(name), context=context, start_time=now, attributes=utf8_values({om.SPAN_KIND: kind, **attributes})
        )

    def _open(self, kind: str, event: Event, now: int) -> None:
        attributes: dict[str, Any]
        if event.kind == "chain_start":
            attributes = {
                om.INPUT_VALUE: json.dumps(event.inputs, ensure_ascii=False),
                om.INPUT_MIME_TYPE: om.JSON_MIME,
                om.METADATA: json.dumps(event.settings, ensure_ascii=False),
                om.RUN_ID: event.run_id,
            }
            name = om.ROOT_SPAN_NAME
        elif event.kind == "llm_start":
            attributes = {
                om.LLM_MODEL_NAME: event.model,
                om.INPUT_VALUE: event.prompt,
                om.INPUT_MIME_TYPE: om.TEXT_MIME,
                om.LLM_INVOCATION_PARAMETERS: json.dumps({"stop": event.stop}, ensure_ascii=False),
                om.message_attribute(om.LLM_INPUT_MESSAGES, 0, om.MESSAGE_ROLE): "user",
                om.message_attribute(om.LLM_INPUT_MESSAGES, 0, om.MESSAGE_CONTENT): event.prompt,
            }
            name = event.frames[-2] if len(event.frames) > 1 else "llm"  # the caller: plan, calculate, ...
        elif event.kind == "tool_start":
            attributes = {om.TOOL_NAME: event.tool, om.INPUT_VALUE: event.tool_input, om.INPUT_MIME_TYPE: om.TEXT_MIME}
            name = event.tool
        else:
            return  # om.OPENS opens a span on the three kinds above only
        self.open.append((kind, self._start(name, kind, now, attributes)))

    def _close(self, kind: str, event: Event, now: int) -> None:
        if kind == om.AGENT:
            self._end_round(now)
        index = next((i for i in range(len(self.open) - 1, -1, -1) if self.open[i][0] == kind), None)
        if index is None:
            return  # a trace cut before its start event: nothing to close
        span = self.open.pop(index)[1]
        attributes = _closing_attributes(event)
        span.set_attributes(utf8_values(attributes))
        if event.kind in om.ERROR_KINDS:
            error = f"{attributes['exception.type']}: {attributes['exception.message']}"
            span.set_status(Status(StatusCode.ERROR, utf8(error)))
        span.end(end_time=now)

    def finish(self) -> None:
        """End whatever a truncated trace left open, at its last event's time."""
        self._end_round(self.last_ns)
        while self.open:
            self.open.pop()[1].end(end_time=self.last_ns)


def utf8(text: str) -> str:
    """`text` as UTF-8 can carry it: each lone surrogate becomes U+FFFD."""
    return text if text.isascii() else _LONE_SURROGATE.sub("\ufffd", text)


def utf8_values(attributes: dict[str, Any]) -> dict[str, Any]:
    return {key: utf8(value) if isinstance(value, str) else value for key, value in attributes.items()}


def _closing_attributes(event: Event) -> dict[str, Any]:
    if event.kind == "llm_end":
        attributes: dict[str, Any] = {
            om.OUTPUT_VALUE: event.text,
            om.OUTPUT_MIME_TYPE: om.TEXT_MIME,
            om.message_attribute(om.LLM_OUTPUT_MESSAGES, 0, om.MESSAGE_ROLE): "assistant",
            om.message_attribute(om.LLM_OUTPUT_MESSAGES, 0, om.MESSAGE_CONTENT): event.text,
        }
        for name, keys in _TOKEN_KEYS.items():
            found = [event.usage[k] for k in keys if event.usage and k in event.usage]
            if found:
                attributes[name] = int(found[0])
        return attributes
    if event.kind == "tool_end":
        return {om.OUTPUT_VALUE: event.observation, om.OUTPUT_MIME_TYPE: om.TEXT_MIME}
    if event.kind == "tool_error":
        return {
            om.OUTPUT_VALUE: event.observation or "",
            "exception.type": event.error_type,
            "exception.message": event.message,
        }
    if event.kind == "chain_end":
        return {om.OUTPUT_VALUE: json.dumps(event.outputs, ensure_ascii=False), om.OUTPUT_MIME_TYPE: om.JSON_MIME}
    if event.kind == "chain_error":
        return {"exception.type": event.error_type, "exception.message": event.message}
    return {}  # om.CLOSES closes a span on the five kinds above only


def _provider(service_name: str, processor: Any) -> TracerProvider:
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(processor)
    return provider


def spans_of(trace: Trace, redactor: Redactor | None = None, start_ns: int | None = None) -> list[ReadableSpan]:
    """A recorded run's spans. Times are the trace's own (t since start) on a wall clock that puts
    the last event at the file's modification time, unless `start_ns` says when it began."""
    if start_ns is None and trace.path is not None and trace.events:
        start_ns = os.stat(trace.path).st_mtime_ns - int(trace.events[-1].t * 1e9)
    collected = InMemorySpanExporter()
    provider = _provider(om.SERVICE_NAME, SimpleSpanProcessor(collected))
    builder = SpanBuilder(provider.get_tracer(om.SCOPE_NAME), redactor or default_redactor(), start_ns)
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
    ) -> None:
        # Only a live listener sending to a collector needs the HTTP exporter (requests, protobuf;
        # about 0.1 s): spans_of and a listener given its own exporter never load it.
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        if exporter is None and endpoint is None:
            raise ValueError("OTelListener needs an endpoint (e.g. http://127.0.0.1:4318) or an exporter")
        self.url = traces_url(endpoint) if endpoint else None
        self.exporter = _ResultKeeper(exporter or OTLPSpanExporter(endpoint=self.url, timeout=timeout))
        self.provider = _provider(service_name, BatchSpanProcessor(self.exporter))
        self.builder = SpanBuilder(self.provider.get_tracer(om.SCOPE_NAME), redactor or default_redactor())

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


def traces_url(endpoint: str) -> str:
    """An OTLP/HTTP base URL (http://host:4318) or the full traces URL; the full one either way."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/traces") else endpoint + "/v1/traces"
