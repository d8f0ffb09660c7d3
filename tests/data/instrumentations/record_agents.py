"""Makes NAME.otlp.json and its ground truth: a small weather agent of a framework, with one tool, traced by an instrumentation of that framework, against tests/helpers/fake_openai_server.py.

Run from the repository root: `uv run python tests/data/instrumentations/record_agents.py NAME`, NAME
- `openinference-openai-agents`: an OpenAI Agents SDK `Agent` (chat-completions model), traced by
  openinference-instrumentation-openai-agents;
- `openinference-openai-agents-responses`: the same agent on the SDK's default model, the Responses API
  (`OpenAIResponsesModel`, POST /v1/responses), traced by the same instrumentation. The server received
  `instructions` and `input` items (messages, `function_call`, `function_call_output`): the ground truth
  writes them as the chat messages they stand for (system, user, assistant with its tool calls, tool);
- `openinference-langchain`: a LangChain 1.x `create_agent` agent (ChatOpenAI), traced by
  openinference-instrumentation-langchain;
- `pydantic-ai-genai`: a pydantic-ai `Agent`, traced by its own instrumentation (`Agent.instrument_all(
  InstrumentationSettings(...))`, the default version: GenAI `gen_ai.input.messages`/`gen_ai.output.messages`);
- `pydantic-ai-events`: the same agent, pydantic-ai's events form (version 1, one event per message,
  `event_mode='attributes'`: the events as JSON in the model span's `events` attribute). pydantic-ai 2.x
  offers no events form any more, so this one runs on pydantic-ai 1.x, outside the project's environment:
  `uv run --no-project --with 'pydantic-ai-slim[openai]>=1,<2' --with opentelemetry-sdk
  --with opentelemetry-exporter-otlp-proto-common --with openinference-semantic-conventions
  python tests/data/instrumentations/record_agents.py pydantic-ai-events`;
- `pydantic-ai-logs`: the same on pydantic-ai 1.x (the same command), version 1 with `event_mode='logs'`:
  the events as OpenTelemetry log records in the model span's context. The file is what a collector's file
  exporter writes for a traces and a logs pipeline: one OTLP JSON document a line, the spans, then the logs.
The model asks for two weather calls at once (parallel), then answers. The ground truth is what the server
received (each request's messages and tools) and what it answered (each reply's text and tool calls), taken
from the server, not from the spans; each tool's result is in the next request's tool messages."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.helpers.fake_openai_server import FakeOpenAIServer, ToolCalls  # noqa: E402
from tests.helpers.foreign_traces import otlp_json_document  # noqa: E402

HERE = Path(__file__).resolve().parent
MODEL = "gpt-4o-mini"
INSTRUCTIONS = "Answer with the weather tool."
QUESTION = "What is the weather in Paris and in Oslo?"
WEATHER = {"Paris": "rainy, 14°C", "Oslo": "snow, -3°C"}
SCRIPT = [
    ToolCalls(
        (("call_paris", "get_weather", '{"city": "Paris"}'), ("call_oslo", "get_weather", '{"city": "Oslo"}')),
        text="Let me check both cities.",
    ),
    "Paris is rainy at 14°C; Oslo has snow at -3°C.",
]
# The packages each recording was made with (written beside it, in NAME.versions.json).
PACKAGES = {
    "openinference-openai-agents": ("openai-agents", "openinference-instrumentation-openai-agents", "openai"),
    "openinference-openai-agents-responses": (
        "openai-agents",
        "openinference-instrumentation-openai-agents",
        "openai",
    ),
    "openinference-langchain": (
        "langchain",
        "langchain-core",
        "langchain-openai",
        "langgraph",
        "openinference-instrumentation-langchain",
    ),
    "pydantic-ai-genai": ("pydantic-ai-slim", "openai"),
    "pydantic-ai-events": ("pydantic-ai-slim", "openai"),
    "pydantic-ai-logs": ("pydantic-ai-slim", "openai"),
}


def get_weather(city: str) -> str:
    """The weather in a city now."""
    return WEATHER[city]


def _answered(step) -> dict:
    """What the server answered for one scripted step: the reply's text and tool calls."""
    if isinstance(step, ToolCalls):
        calls = [{"id": i, "name": n, "arguments": a} for i, n, a in step.calls]
        return {"content": step.text, "tool_calls": calls}
    return {"content": step, "tool_calls": []}


def _text_of(content: Any) -> str:
    """A Responses input message's text: a string, or its text parts (`input_text`/`output_text`) joined."""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or ())


def chat_messages(body: dict) -> list[dict]:
    """A Responses API request's `instructions` and `input` items as the chat messages they stand for: the
    instructions a system message, a message item its role and text, the `function_call` items after an
    assistant message (or standing alone) that message's tool calls, a `function_call_output` a tool message."""
    messages: list[dict] = [{"role": "system", "content": body["instructions"]}] if body.get("instructions") else []
    items = [{"role": "user", "content": body["input"]}] if isinstance(body["input"], str) else body["input"]
    for item in items:
        kind = item.get("type", "message")
        if kind == "message":
            messages.append({"role": item["role"], "content": _text_of(item.get("content"))})
        elif kind == "function_call":
            call = {
                "id": item["call_id"],
                "type": "function",
                "function": {"name": item["name"], "arguments": item["arguments"]},
            }
            last = messages[-1] if messages else None
            if last is None or last["role"] != "assistant":  # calls the model made without text first
                last = {"role": "assistant", "content": ""}
                messages.append(last)
            last.setdefault("tool_calls", []).append(call)
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": item["call_id"], "content": _text_of(item["output"])})
        else:
            raise ValueError(f"a Responses input item this recording does not expect: {kind!r}")
    return messages


def chat_tools(tools: list[dict]) -> list[dict]:
    """A Responses API request's function tools (`name`, `description`, `parameters`, `strict` at the top)
    as the chat-completions tools they stand for (the same under `function`)."""
    kept = ("name", "description", "parameters", "strict")
    if any(t.get("type") != "function" for t in tools):
        raise ValueError(f"a Responses tool this recording does not expect: {tools!r}")
    return [{"type": "function", "function": {k: t[k] for k in kept if k in t}} for t in tools]


def _received(body: dict) -> dict:
    """What the server received, as the ground truth holds it: the messages and the tools offered."""
    if "messages" in body:
        return {"messages": body["messages"], "tools": body.get("tools", [])}
    # The request as sent is kept beside them, so the translation can be checked against it.
    as_sent = {key: body.get(key) for key in ("instructions", "input", "tools")}
    return {"messages": chat_messages(body), "tools": chat_tools(body.get("tools", [])), "as_sent": as_sent}


def _openai_agents(base_url: str, provider: TracerProvider, responses: bool = False) -> None:
    from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool
    from openai import AsyncOpenAI
    from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor

    instrumentor = OpenAIAgentsInstrumentor()
    instrumentor.instrument(tracer_provider=provider)  # exclusive: the SDK's own exporter is not called
    try:
        client = AsyncOpenAI(base_url=base_url, api_key="not-a-key", max_retries=0)
        agent = Agent(
            name="weather-agent",
            instructions=INSTRUCTIONS,
            tools=[function_tool(get_weather)],
            model=(OpenAIResponsesModel if responses else OpenAIChatCompletionsModel)(
                model=MODEL, openai_client=client
            ),
        )
        Runner.run_sync(agent, QUESTION)
    finally:
        instrumentor.uninstrument()


def _langchain(base_url: str, provider: TracerProvider) -> None:
    from langchain.agents import create_agent
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI
    from openinference.instrumentation.langchain import LangChainInstrumentor

    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        model = ChatOpenAI(model=MODEL, base_url=base_url, api_key="not-a-key", max_retries=0)
        agent = create_agent(model, tools=[tool(get_weather)], system_prompt=INSTRUCTIONS, name="weather-agent")
        agent.invoke({"messages": [{"role": "user", "content": QUESTION}]})
    finally:
        instrumentor.uninstrument()


def _pydantic_ai(base_url: str, provider: TracerProvider, form: str, logs: Any = None) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.models.instrumented import InstrumentationSettings
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    if form == "genai":
        settings = InstrumentationSettings(tracer_provider=provider)
    elif form == "events":  # version 1, each message an event, kept on the model span as its `events` attribute
        settings = InstrumentationSettings(tracer_provider=provider, version=1, event_mode="attributes")
    else:  # version 1, each message an OpenTelemetry log record
        settings = InstrumentationSettings(tracer_provider=provider, version=1, event_mode="logs", logger_provider=logs)
    model = OpenAIChatModel(MODEL, provider=OpenAIProvider(base_url=base_url, api_key="not-a-key"))
    Agent.instrument_all(settings)  # how pydantic-ai's docs turn it on (1.x and 2.x alike)
    try:
        agent = Agent(model, name="weather-agent", instructions=INSTRUCTIONS)
        agent.tool_plain(get_weather)
        asyncio.run(agent.run(QUESTION))
    finally:
        Agent.instrument_all(False)


def otlp_json_logs(records) -> dict:
    """Log records in the OTLP JSON encoding (ids as hex, as for spans)."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs

    document = MessageToDict(encode_logs(records))
    for resource in document["resourceLogs"]:
        for scope in resource["scopeLogs"]:
            for record in scope["logRecords"]:
                for key in ("traceId", "spanId"):
                    if record.get(key):
                        record[key] = base64.b64decode(record[key]).hex()
    return document


def main(name: str) -> None:
    if name not in PACKAGES:
        raise SystemExit(f"unknown recording {name!r}: name one of {', '.join(PACKAGES)}")
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    logs, log_exporter = None, None
    if name == "pydantic-ai-logs":
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor

        log_exporter = InMemoryLogRecordExporter()
        logs = LoggerProvider()
        logs.add_log_record_processor(SimpleLogRecordProcessor(log_exporter))
    server = FakeOpenAIServer(list(SCRIPT), model_names=(MODEL,)).start()
    try:
        if name.startswith("openinference-openai-agents"):
            _openai_agents(server.base_url, provider, responses=name.endswith("-responses"))
        elif name == "openinference-langchain":
            _langchain(server.base_url, provider)
        else:
            _pydantic_ai(server.base_url, provider, name.removeprefix("pydantic-ai-"), logs)
    finally:
        server.stop()
    truth = [
        {"received": _received(r.body), "answered": _answered(step)}
        for r, step in zip(server.received, SCRIPT, strict=True)
    ]
    document = otlp_json_document(exporter.get_finished_spans())
    if log_exporter is None:
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    else:  # JSON lines, as a collector's file exporter writes them
        logged = otlp_json_logs(log_exporter.get_finished_logs())
        text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in (document, logged))
    (HERE / f"{name}.otlp.json").write_text(text)
    (HERE / f"{name}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")
    made_with = {package: version(package) for package in (*PACKAGES[name], "opentelemetry-sdk")}
    (HERE / f"{name}.versions.json").write_text(json.dumps(made_with, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
