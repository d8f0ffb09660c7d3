"""Other tools' trace files for the importer tests: OTLP JSON made by the real OpenTelemetry SDK with
OpenInference attributes, and LangSmith / Langfuse exports written to their documented JSON shapes."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from google.protobuf.json_format import MessageToDict
from openinference.semconv.trace import MessageAttributes, OpenInferenceSpanKindValues, SpanAttributes
from opentelemetry import trace as otel_trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

T0 = 1_700_000_000_000_000_000  # ns
MS = 1_000_000
KIND = SpanAttributes.OPENINFERENCE_SPAN_KIND
PLAN_REPLY = "I should look up the price and compute the markup.\nAction: Search\nAction Input: rose price"
FINAL_REPLY = "I now know the final answer.\nFinal Answer: 26.25 yuan"


def _message(prefix: str, index: int, role: str, content: str) -> dict[str, str]:
    return {
        f"{prefix}.{index}.{MessageAttributes.MESSAGE_ROLE}": role,
        f"{prefix}.{index}.{MessageAttributes.MESSAGE_CONTENT}": content,
    }


def _llm(tracer, parent, start: int, end: int, prompt: str, reply: str, tokens: tuple[int, int]):
    span = tracer.start_span(
        "ChatOpenAI",
        context=otel_trace.set_span_in_context(parent),
        start_time=start,
        attributes={
            KIND: OpenInferenceSpanKindValues.LLM.value,
            SpanAttributes.LLM_MODEL_NAME: "gpt-4o-mini-2024-07-18",
            **_message(SpanAttributes.LLM_INPUT_MESSAGES, 0, "system", "You are an agent."),
            **_message(SpanAttributes.LLM_INPUT_MESSAGES, 1, "user", prompt),
            **_message(SpanAttributes.LLM_OUTPUT_MESSAGES, 0, "assistant", reply),
            SpanAttributes.LLM_TOKEN_COUNT_PROMPT: tokens[0],
            SpanAttributes.LLM_TOKEN_COUNT_COMPLETION: tokens[1],
            SpanAttributes.LLM_TOKEN_COUNT_TOTAL: sum(tokens),
        },
    )
    span.end(end_time=end)


def _tool(tracer, parent, name: str, start: int, end: int, tool_input: str, output: str | None):
    span = tracer.start_span(
        name,
        context=otel_trace.set_span_in_context(parent),
        start_time=start,
        attributes={
            KIND: OpenInferenceSpanKindValues.TOOL.value,
            SpanAttributes.TOOL_NAME: name,
            SpanAttributes.INPUT_VALUE: tool_input,
        },
    )
    if output is None:
        span.record_exception(ZeroDivisionError("division by zero"), timestamp=end - MS)
        span.set_status(Status(StatusCode.ERROR, "division by zero"))
    else:
        span.set_attribute(SpanAttributes.OUTPUT_VALUE, output)
    span.end(end_time=end)


def otlp_spans():
    """An OpenInference-instrumented agent run: plan, two tools in parallel (one fails), the answer;
    plus one span whose parent never reached the file."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test-agent")
    root = tracer.start_span(
        "AgentExecutor",
        start_time=T0,
        attributes={
            KIND: OpenInferenceSpanKindValues.AGENT.value,
            SpanAttributes.INPUT_VALUE: '{"input": "rose price + 5%?"}',
            SpanAttributes.OUTPUT_VALUE: "26.25 yuan",
        },
    )
    _llm(tracer, root, T0 + 1 * MS, T0 + 40 * MS, "What do roses cost, plus 5%?", PLAN_REPLY, (52, 19))
    _tool(tracer, root, "Search", T0 + 41 * MS, T0 + 90 * MS, "rose price", "25 yuan a bunch")
    _tool(tracer, root, "Calculator", T0 + 42 * MS, T0 + 60 * MS, "25 * 1.05", "26.25")  # parallel to Search
    _tool(tracer, root, "Divide", T0 + 43 * MS, T0 + 50 * MS, "1/0", None)
    _llm(tracer, root, T0 + 91 * MS, T0 + 120 * MS, "Observation: 25 yuan; 26.25", FINAL_REPLY, (80, 12))
    root.end(end_time=T0 + 121 * MS)
    spans = list(exporter.get_finished_spans())
    provider.shutdown()
    return spans


def otlp_json_document(spans) -> dict:
    """The OTLP JSON encoding (protobuf JSON mapping, ids as hex as the OTLP spec asks)."""
    document = MessageToDict(encode_spans(spans))
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
    return document


def write_otlp(path: Path, orphan: bool = True) -> Path:
    document = otlp_json_document(otlp_spans())
    if orphan:  # a span whose parent was dropped by a sampler: must still be shown
        spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
        lost = dict(spans[1], spanId="00000000000000aa", parentSpanId="00000000000000ff", name="lost-tool")
        lost["attributes"] = [a for a in lost["attributes"] if a["key"] != SpanAttributes.TOOL_NAME]
        spans.append(lost)
    path.write_text(json.dumps(document) + "\n")  # a collector's file exporter: one document per line
    return path


def write_langfuse(path: Path) -> Path:
    """A Langfuse trace as GET /api/public/traces/{id} returns it: the trace with its observations."""
    trace = {
        "id": "tr-1",
        "name": "rose-agent",
        "timestamp": "2025-02-10T08:00:00.000Z",
        "input": {"input": "rose price + 5%?"},
        "output": "26.25 yuan",
        "observations": [
            {
                "id": "gen-1",
                "traceId": "tr-1",
                "type": "GENERATION",
                "name": "plan",
                "parentObservationId": None,
                "startTime": "2025-02-10T08:00:00.010Z",
                "endTime": "2025-02-10T08:00:00.400Z",
                "model": "gpt-4o",
                "input": [{"role": "user", "content": "What do roses cost?"}],
                "output": {"role": "assistant", "content": PLAN_REPLY},
                "usageDetails": {"input": 30, "output": 12, "total": 42},
            },
            {
                "id": "tool-1",
                "traceId": "tr-1",
                "type": "TOOL",
                "name": "Search",
                "parentObservationId": None,
                "startTime": "2025-02-10T08:00:00.410Z",
                "endTime": "2025-02-10T08:00:00.600Z",
                "input": "rose price",
                "output": "25 yuan a bunch",
            },
            {
                "id": "gen-2",
                "traceId": "tr-1",
                "type": "GENERATION",
                "name": "plan",
                "parentObservationId": None,
                "startTime": "2025-02-10T08:00:00.610Z",
                "endTime": "2025-02-10T08:00:00.900Z",
                "model": "gpt-4o",
                "input": [{"role": "user", "content": "Observation: 25 yuan"}],
                "output": FINAL_REPLY,
                "usage": {"input": 40, "output": 9},
            },
        ],
    }
    path.write_text(json.dumps(trace, indent=1))
    return path


def write_langsmith(path: Path) -> Path:
    """LangSmith runs as client.list_runs() gives them (JSON), a chain with an llm and a tool under it."""
    runs = [
        {
            "id": "r-root",
            "name": "AgentExecutor",
            "run_type": "chain",
            "parent_run_id": None,
            "start_time": "2025-02-10T08:00:00.000",
            "end_time": "2025-02-10T08:00:01.000",
            "inputs": {"input": "rose price?"},
            "outputs": {"output": "25 yuan"},
            "error": None,
        },
        {
            "id": "r-llm",
            "name": "ChatOpenAI",
            "run_type": "llm",
            "parent_run_id": "r-root",
            "start_time": "2025-02-10T08:00:00.100",
            "end_time": "2025-02-10T08:00:00.300",
            "inputs": {
                "messages": [
                    [
                        {
                            "lc": 1,
                            "type": "constructor",
                            "id": ["langchain", "schema", "messages", "HumanMessage"],
                            "kwargs": {"content": "rose price?", "type": "human"},
                        }
                    ]
                ]
            },
            "outputs": {
                "generations": [[{"text": PLAN_REPLY}]],
                "llm_output": {"token_usage": {"prompt_tokens": 11, "completion_tokens": 7}},
            },
            "extra": {"invocation_params": {"model_name": "gpt-4o-mini"}},
            "error": None,
        },
        {
            "id": "r-tool",
            "name": "Search",
            "run_type": "tool",
            "parent_run_id": "r-root",
            "start_time": "2025-02-10T08:00:00.400",
            "end_time": "2025-02-10T08:00:00.500",
            "inputs": {"input": "rose price"},
            "outputs": None,
            "error": "Traceback (most recent call last):\nTimeoutError: search timed out",
        },
    ]
    path.write_text(json.dumps(runs))
    return path
