"""Events become a span tree: the run, its rounds, model calls, and tool calls that are siblings when they run at once."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from executor.events import Event, EventBase

from ...extras import missing_extra
from ...trace import otel_mapping as om
from ...trace.line_encoder import pydantic_json
from ...trace.redact import Redactor
from . import attributes as oa
from . import names as on

try:
    from opentelemetry import trace as otel_trace
    from opentelemetry.trace import Status, StatusCode
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise missing_extra("otel", "OTLP export", missing) from None

_AnyEvent = TypeVar("_AnyEvent", bound=EventBase)

MAIN = None
"""The lane of the loop's own thread; each concurrent tool call has a lane named by its call id."""


def redacted(event: _AnyEvent, redactor: Redactor) -> _AnyEvent:
    """The event as it may leave the machine: secrets replaced, exactly as TraceWriter does on disk."""
    data = event.model_dump(mode="json")
    if not redactor.might_contain_secret(json.dumps(data, ensure_ascii=False)):
        return event
    return type(event).model_validate(redactor.redact(data))


@dataclass
class OpenSpan:
    kind: str  # the OpenInference span kind
    span: Any
    opened_by: str  # the event kind that opened it
    model: str = ""  # an LLM span's requested model, for the model that answered
    failed: bool = False  # a handled tool error: the span stays open for its tool_end, then ends ERROR


class SpanBuilder:
    """Feeds events to an OpenTelemetry tracer: the run is the AGENT root, each round a CHAIN span
    under it, model calls LLM spans and tool runs TOOL spans under the innermost open span of their
    lane (so the calculator's own model call sits inside its tool).

    A lane is a chain of calls that nest: the loop's own, and one per tool call of a reply the
    executor runs at once (events inside such a call carry its `tool_call_id`). The calls of one
    reply are so siblings under the round, each closed by its own events, in whatever order they
    finish. Every event is also a span event carrying its JSON, so an importer rebuilds the run exactly.
    """

    def __init__(
        self,
        tracer: Any,
        redactor: Redactor,
        start_ns: int | None = None,
        *,
        run_id: str | None = None,
        agent_name: str | None = None,
        scenario: str | None = None,
        agent: str | None = None,
    ) -> None:
        self.tracer, self.redactor, self.start_ns = tracer, redactor, start_ns
        self.run_id = run_id or uuid.uuid4().hex  # one per run: the events' own run_id is often a scenario's name
        self.agent_name, self.scenario, self.agent = agent_name, scenario, agent
        self.lanes: dict[str | None, list[OpenSpan]] = {MAIN: []}  # open spans per lane, outermost first
        self.round: OpenSpan | None = None
        self.round_iteration = 0
        self.last_ns = 0
        self.descriptions: dict[str, str] = {}  # tool name -> its description (chain_start)
        self.arguments: dict[str, str] = {}  # tool call id -> its arguments as the model wrote them

    def __call__(self, listened: EventBase) -> None:
        # A listener is handed EventBase; every event the executor or a reader makes is one of the
        # union's classes, so comparing kinds below narrows it (until executor's Listener types it).
        event = cast(Event, redacted(listened, self.redactor))
        if self.start_ns is None:
            self.start_ns = time.time_ns() - int(event.t * 1e9)
        now = self.last_ns = self.start_ns + int(event.t * 1e9)
        if event.kind not in ("chain_start", "chain_end", "chain_error") and event.iteration != self.round_iteration:
            self._next_round(event.iteration, now)
        lane = getattr(event, "tool_call_id", None)
        self._remember(event)
        if event.kind in ("chain_end", "chain_error"):
            self._end_all_but_root(event, now)  # the run's end belongs to the root span, not the last round
        elif event.kind in om.OPENS:
            self._open(lane, event, now)
        elif event.kind == "tool_error" and self._find(lane, om.TOOL) is None:
            # A call refused before its tool ran (arguments that do not parse) is a tool call too.
            self._open(lane, event, now)
        target = self._innermost(lane)
        if target is not None:  # every event, lossless: an importer rebuilds the run from these
            target.span.add_event(event.kind, {om.EVENT_JSON: pydantic_json(event).decode("utf-8")}, timestamp=now)
        if event.kind in om.CLOSES:
            self._close(lane, event, now)

    def _remember(self, event: Event) -> None:
        if event.kind == "chain_start":
            self.descriptions = {tool.name: tool.description for tool in event.tools}
        elif event.kind == "agent_action" and event.tool_call_id:
            self.arguments[event.tool_call_id] = event.tool_input

    def _innermost(self, lane: str | None) -> OpenSpan | None:
        """Where a lane's event belongs: its innermost open span, or the loop's when the lane has none."""
        for key in (lane, MAIN):
            if self.lanes.get(key):
                return self.lanes[key][-1]
        return None

    def _find(self, lane: str | None, kind: str) -> tuple[str | None, int] | None:
        """The lane and index of the innermost open span of `kind`, in the event's lane, else in the loop's."""
        for key in dict.fromkeys((lane, MAIN)):
            spans = self.lanes.get(key, [])
            for index in range(len(spans) - 1, -1, -1):
                if spans[index].kind == kind:
                    return key, index
        return None

    def _next_round(self, iteration: int, now: int) -> None:
        self._end_round(now)
        if iteration >= 1 and self.lanes[MAIN]:
            self.round = self._start(MAIN, "round", om.ROUND_SPAN_NAME, om.CHAIN, now, {om.ITERATION: iteration})
            self.lanes[MAIN].append(self.round)
        self.round_iteration = iteration

    def _end_round(self, now: int, status: Status | None = None) -> None:
        if self.round is not None:
            self.lanes[MAIN].remove(self.round)
            self.round.span.set_status(status or Status(StatusCode.OK))
            self.round.span.end(end_time=now)
            self.round = None

    def _start(self, lane: str | None, by: str, name: str, kind: str, now: int, attributes: oa.Attributes) -> OpenSpan:
        parent = self._innermost(lane)
        context = otel_trace.set_span_in_context(parent.span) if parent is not None else None
        attributes = oa.utf8_values({om.SPAN_KIND: kind, **attributes})
        span = self.tracer.start_span(oa.utf8(name), context=context, start_time=now, attributes=attributes)
        return OpenSpan(kind, span, by)

    def _open(self, lane: str | None, event: Event, now: int) -> None:
        model = ""
        if event.kind == "chain_start":
            kind, name = om.AGENT, om.ROOT_SPAN_NAME
            attributes = oa.root_attributes(event, self.run_id, self.agent_name, self.scenario, self.agent)
        elif event.kind == "llm_start":
            kind, model = om.LLM, event.model
            name = event.frames[-2] if len(event.frames) > 1 else "llm"  # the caller: plan, calculate, ...
            attributes = oa.llm_start_attributes(event)
        elif event.kind in ("tool_start", "tool_error"):
            kind, name = om.TOOL, event.tool
            arguments = self.arguments.pop(event.tool_call_id or "", None)
            attributes = oa.tool_start_attributes(event, self.descriptions.get(event.tool), arguments)
        else:
            return  # om.OPENS opens a span on the three kinds above only
        opened = self._start(lane, event.kind, name, kind, now, attributes)
        opened.model = model
        self.lanes.setdefault(lane, []).append(opened)

    def _close(self, lane: str | None, event: Event, now: int) -> None:
        found = self._find(lane, om.CLOSES[event.kind])
        if found is None:
            return  # a trace cut before its start event: nothing to close
        key, index = found
        closing = self.lanes[key][index]
        if event.kind == "llm_end":
            closing.span.set_attributes(oa.utf8_values(oa.llm_end_attributes(event, closing.model)))
        elif event.kind in ("tool_end", "tool_error"):
            closing.span.set_attributes(oa.utf8_values(oa.tool_output_attributes(event)))
        elif event.kind == "chain_end":
            closing.span.set_attributes({om.OUTPUT_VALUE: oa.utf8(json.dumps(event.outputs, ensure_ascii=False)),
                                         om.OUTPUT_MIME_TYPE: om.JSON_MIME})  # fmt: skip
        if event.kind == "chain_error" or event.kind == "tool_error":
            self._fail(closing, event.error_type, event.message, now)
            if event.kind == "tool_error" and event.handled and closing.opened_by == "tool_start":
                return  # the tool ends with its tool_end, which carries what the model is told
        elif not closing.failed:
            closing.span.set_status(Status(StatusCode.OK))
        del self.lanes[key][index]
        if key is not MAIN and not self.lanes[key]:
            del self.lanes[key]  # that call is done: a long live run keeps no lane per call it made
        closing.span.end(end_time=now)

    def _fail(self, failing: OpenSpan, error_type: str, message: str, now: int) -> None:
        """ERROR status ("ToolError: ..."), an `exception` span event, and error.type, as OpenTelemetry records one."""
        failing.failed = True
        failing.span.set_status(Status(StatusCode.ERROR, oa.utf8(f"{error_type}: {message}")))
        failing.span.set_attribute(on.ERROR_TYPE, oa.utf8(error_type))
        failing.span.add_event(
            on.EXCEPTION_EVENT,
            {on.EXCEPTION_TYPE: oa.utf8(error_type), on.EXCEPTION_MESSAGE: oa.utf8(message)},
            timestamp=now,
        )

    def _end_all_but_root(self, event: Event, now: int) -> None:
        """At the run's end, whatever is still open (the model call a chain_error came out of) ends with it."""
        status = None
        if event.kind == "chain_error":
            status = Status(StatusCode.ERROR, oa.utf8(f"{event.error_type}: {event.message}"))
        for lane in [key for key in self.lanes if key is not MAIN] + [MAIN]:
            spans = self.lanes[lane]
            while spans and spans[-1].kind != om.AGENT:
                if spans[-1] is self.round:
                    self._end_round(now, status)
                    continue
                ending = spans.pop()
                if status is not None:
                    ending.span.set_status(status)
                ending.span.end(end_time=now)

    def finish(self) -> None:
        """End whatever a truncated trace left open, at its last event's time."""
        self._end_round(self.last_ns)
        for lane in [key for key in self.lanes if key is not MAIN] + [MAIN]:
            while self.lanes[lane]:
                self.lanes[lane].pop().span.end(end_time=self.last_ns)
