"""Makes NAME.otlp.json and its ground truth: a two-round tool-calling agent on the openai client, traced by an instrumentation of it, against tests/helpers/fake_openai_server.py.

Run from the repository root: `uv run python tests/data/instrumentations/record_openai_client.py NAME`, NAME
`openinference-openai` (openinference-instrumentation-openai), `otel-openai-v2`
(opentelemetry-instrumentation-openai-v2, message capture on, the GenAI convention's latest attributes) or
`otel-openai-v2-events` (the same, messages captured only in its `gen_ai.client.inference.operation.details`
events, log records: JSON lines, the spans' document then the logs', as a collector's file exporter writes).
The ground truth is what the server received (each request's messages and tools) and what it answered
(each reply's text and tool calls), taken from the server, not from the spans."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import openai
from openinference.semconv.trace import OpenInferenceSpanKindValues, SpanAttributes
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls  # noqa: E402
from tests.helpers.foreign_traces import otlp_json_document  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_agents import otlp_json_logs  # noqa: E402

HERE = Path(__file__).resolve().parent
QUESTION = "What is the weather in Paris and in Oslo?"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city now.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]
WEATHER = {"Paris": "rainy, 14°C", "Oslo": "snow, -3°C"}
SCRIPT = [
    ToolCalls(
        (("call_paris", "get_weather", '{"city": "Paris"}'), ("call_oslo", "get_weather", '{"city": "Oslo"}')),
        text="Let me check both cities.",
    ),
    "Paris is rainy at 14°C; Oslo has snow at -3°C.",
]


def _answered(step) -> dict:
    """What the server answered for one scripted step: the reply's text and tool calls."""
    if isinstance(step, ToolCalls):
        calls = [{"id": i, "name": n, "arguments": a} for i, n, a in step.calls]
        return {"content": step.text, "tool_calls": calls}
    return {"content": step, "tool_calls": []}


def _instrumentor(name: str) -> Any:
    if name == "openinference-openai":
        from openinference.instrumentation.openai import OpenAIInstrumentor

        return OpenAIInstrumentor()
    if name in ("otel-openai-v2", "otel-openai-v2-events"):
        # Message capture on, as span attributes (gen_ai.input.messages / gen_ai.output.messages), or
        # only in the events (the same attributes on a log record in the span's context).
        os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
        capture = "EVENT_ONLY" if name.endswith("-events") else "SPAN_ONLY"
        os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = capture
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor as OpenAIV2Instrumentor

        return OpenAIV2Instrumentor()
    raise SystemExit(f"unknown recording {name!r}: name openinference-openai, otel-openai-v2 or otel-openai-v2-events")


def _tool_attributes(name: str, call_id: str, arguments: str, result: str) -> dict[str, str]:
    """The tool span the agent writes itself, in the convention of the instrumentation beside it."""
    if name == "openinference-openai":
        return {
            SpanAttributes.OPENINFERENCE_SPAN_KIND: OpenInferenceSpanKindValues.TOOL.value,
            SpanAttributes.TOOL_NAME: "get_weather",
            SpanAttributes.INPUT_VALUE: arguments,
            SpanAttributes.OUTPUT_VALUE: result,
            "tool_call.id": call_id,
        }
    return {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": call_id,
        "gen_ai.tool.call.arguments": arguments,
        "gen_ai.tool.call.result": result,
    }


def main(name: str) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    logs = LoggerProvider()
    log_exporter = InMemoryLogRecordExporter()
    logs.add_log_record_processor(SimpleLogRecordProcessor(log_exporter))
    instrumentor = _instrumentor(name)
    instrumentor.instrument(tracer_provider=provider, logger_provider=logs)
    tracer = provider.get_tracer("weather-agent")
    server = FakeOpenAIServer(list(SCRIPT), model_names=("gpt-4o-mini",)).start()
    try:
        client = openai.OpenAI(base_url=server.base_url, api_key="not-a-key", max_retries=0)
        kind = SpanAttributes.OPENINFERENCE_SPAN_KIND
        agent = {kind: OpenInferenceSpanKindValues.AGENT.value} if name == "openinference-openai" else {}
        with tracer.start_as_current_span("weather-agent", attributes=agent):
            messages: list[dict] = [
                {"role": "system", "content": "Answer with the weather tool."},
                {"role": "user", "content": QUESTION},
            ]
            while True:  # the agent loop: ask, run the tools asked for, ask again
                reply = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
                message = reply.choices[0].message
                if not message.tool_calls:
                    break
                messages.append(message.model_dump(exclude_none=True, exclude={"refusal", "annotations", "audio"}))
                for call in message.tool_calls:
                    city = json.loads(call.function.arguments)["city"]
                    with tracer.start_as_current_span(
                        "get_weather" if name == "openinference-openai" else "execute_tool get_weather",
                        attributes=_tool_attributes(name, call.id, call.function.arguments, WEATHER[city]),
                    ):
                        messages.append({"role": "tool", "tool_call_id": call.id, "content": WEATHER[city]})
    finally:
        server.stop()
        instrumentor.uninstrument()
    truth = [
        {"received": {"messages": r.body["messages"], "tools": r.body.get("tools", [])}, "answered": _answered(step)}
        for r, step in zip(server.received, SCRIPT, strict=True)
    ]
    document = otlp_json_document(exporter.get_finished_spans())
    if name.endswith("-events"):  # JSON lines: the spans, then the log records
        logged = otlp_json_logs(log_exporter.get_finished_logs())
        text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in (document, logged))
    else:
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    (HERE / f"{name}.otlp.json").write_text(text)
    (HERE / f"{name}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
