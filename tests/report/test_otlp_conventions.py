"""Exported spans speak OpenInference and the OpenTelemetry GenAI conventions: messages, tool calls, tools, tokens, models, ids."""

from __future__ import annotations

import json

import pytest
from openinference.semconv.trace import (
    MessageAttributes,
    MessageContentAttributes,
    SpanAttributes,
    ToolAttributes,
    ToolCallAttributes,
)
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.semconv._incubating.attributes import error_attributes, gen_ai_attributes

from executor import ManualClock, ModelReply, ScriptedModel
from tests.helpers.otlp_receiver import OTLPReceiver
from tests.helpers.otlp_tree import SpanTree, spans_of_document, unflatten
from tracer import OTelListener, TraceWriter
from tracer.cli import main
from tracer.report.otlp import names as on
from tracer.report.otlp.spans import SpanBuilder
from tracer.trace import otel_mapping as om
from tracer.trace.reader import load_trace
from tracer.trace.redact import default_redactor
from tutorials import get_scenario

FIXTURES = get_scenario("rose-pricing").fixture.parent
OK, ERROR = 1, 2


def _exported(tmp_path, *traces) -> SpanTree:
    out = tmp_path / "spans.json"
    assert main(["export", "--format", "otlp-json", *map(str, traces), "-o", str(out)]) == 0
    return SpanTree(spans_of_document(json.loads(out.read_text())))


def test_every_name_is_the_conventions_own():
    openinference = {
        on.LLM_TOOLS: SpanAttributes.LLM_TOOLS,
        on.TOOL_JSON_SCHEMA: ToolAttributes.TOOL_JSON_SCHEMA,
        on.LLM_FINISH_REASON: SpanAttributes.LLM_FINISH_REASON,
        on.LLM_REQUEST_MODEL_NAME: SpanAttributes.LLM_REQUEST_MODEL_NAME,
        on.LLM_RESPONSE_MODEL_NAME: SpanAttributes.LLM_RESPONSE_MODEL_NAME,
        on.MESSAGE_NAME: MessageAttributes.MESSAGE_NAME,
        on.MESSAGE_TOOL_CALLS: MessageAttributes.MESSAGE_TOOL_CALLS,
        on.MESSAGE_TOOL_CALL_ID: MessageAttributes.MESSAGE_TOOL_CALL_ID,
        on.MESSAGE_CONTENTS: MessageAttributes.MESSAGE_CONTENTS,
        on.MESSAGE_CONTENT_TYPE: MessageContentAttributes.MESSAGE_CONTENT_TYPE,
        on.MESSAGE_CONTENT_TEXT: MessageContentAttributes.MESSAGE_CONTENT_TEXT,
        on.TOOL_CALL_ID: ToolCallAttributes.TOOL_CALL_ID,
        on.TOOL_CALL_FUNCTION_NAME: ToolCallAttributes.TOOL_CALL_FUNCTION_NAME,
        on.TOOL_CALL_FUNCTION_ARGUMENTS: ToolCallAttributes.TOOL_CALL_FUNCTION_ARGUMENTS_JSON,
        on.TOOL_DESCRIPTION: SpanAttributes.TOOL_DESCRIPTION,
        on.AGENT_NAME: SpanAttributes.AGENT_NAME,
    }
    assert list(openinference) == list(openinference.values())
    genai = {name: value for name, value in vars(on).items() if name.startswith("GEN_AI_")}
    assert genai and all(getattr(gen_ai_attributes, name) == value for name, value in genai.items())
    operations = {v.value for v in gen_ai_attributes.GenAiOperationNameValues}
    assert {on.CHAT, on.EXECUTE_TOOL, on.INVOKE_AGENT} <= operations
    assert on.ERROR_TYPE == error_attributes.ERROR_TYPE


def test_each_span_names_its_kind_and_operation(tmp_path):
    tree = _exported(tmp_path, FIXTURES / "rose_pricing.jsonl")
    kinds = {(s.kind, s.attributes.get(on.GEN_AI_OPERATION_NAME)) for s in tree.spans}
    assert kinds == {("AGENT", "invoke_agent"), ("CHAIN", None), ("LLM", "chat"), ("TOOL", "execute_tool")}
    search = next(s for s in tree.spans if s.name == "Search")
    assert search.attributes[on.GEN_AI_TOOL_NAME] == search.attributes["tool.name"] == "Search"
    assert search.attributes[on.TOOL_DESCRIPTION].startswith("Useful for finding")  # from chain_start's tools
    assert on.TOOL_CALL_ID not in search.attributes  # a ReAct action has no call id: none is made up


def test_a_one_prompt_model_call_is_one_user_message_and_offers_no_tools(tmp_path):
    """The ReAct agent sends its whole prompt as one user message; that is what the span says."""
    tree = _exported(tmp_path, FIXTURES / "rose_pricing.jsonl")
    prompts = [e.prompt for e in load_trace(FIXTURES / "rose_pricing.jsonl")[1] if e.kind == "llm_start"]
    llms = tree.of_kind("LLM")
    assert [unflatten(s.attributes, om.LLM_INPUT_MESSAGES) for s in llms] == [
        [{"message.role": "user", "message.content": prompt}] for prompt in prompts
    ]
    assert not any(key.startswith(on.LLM_TOOLS) for s in llms for key in s.attributes)
    assert json.loads(llms[0].attributes[on.GEN_AI_INPUT_MESSAGES]) == [
        {"role": "user", "parts": [{"type": "text", "content": prompts[0]}]}
    ]


def test_a_tool_calling_model_call_has_one_entry_per_message_with_its_tool_calls_and_the_tools(tmp_path):
    path = FIXTURES / "parallel_tools.jsonl"
    events = load_trace(path)[1]
    second = [e for e in events if e.kind == "llm_start"][1]
    llm = _exported(tmp_path, path).of_kind("LLM")[1]
    messages = unflatten(llm.attributes, om.LLM_INPUT_MESSAGES)
    assert [m["message.role"] for m in messages] == [m["role"] for m in second.messages]
    assert [m["message.role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "tool"]
    assert messages[1]["message.content"] == second.messages[1]["content"]
    assert [m.get("message.tool_call_id") for m in messages[3:]] == ["call_bj", "call_sh", "call_gz"]
    assert messages[5]["message.content"] == "the weather service for Guangzhou timed out after 0.5s"
    calls = unflatten(messages[2], "message.tool_calls")
    assert [(c["tool_call.id"], json.loads(c["tool_call.function.arguments"])["city"]) for c in calls] == [
        ("call_bj", "Beijing"),
        ("call_sh", "Shanghai"),
        ("call_gz", "Guangzhou"),
    ]
    tools = unflatten(llm.attributes, on.LLM_TOOLS)
    assert [json.loads(t[on.TOOL_JSON_SCHEMA]) for t in tools] == second.tools
    assert json.loads(llm.attributes[on.GEN_AI_TOOL_DEFINITIONS]) == second.tools
    genai = json.loads(llm.attributes[on.GEN_AI_INPUT_MESSAGES])
    assert genai[2]["parts"][0] == {"type": "tool_call", "id": "call_bj", "name": "get_weather",
                                    "arguments": {"city": "Beijing"}}  # fmt: skip
    assert genai[3] == {
        "role": "tool",
        "parts": [{"type": "tool_call_response", "id": "call_bj", "response": second.messages[3]["content"]}],
    }
    reply = json.loads(llm.attributes[on.GEN_AI_OUTPUT_MESSAGES])
    assert reply == [{"role": "assistant", "parts": [{"type": "text", "content": events[-1].outputs["output"]}],
                      "finish_reason": "stop"}]  # fmt: skip


def test_tokens_finish_reason_and_the_model_that_answered(tmp_path):
    scenario = get_scenario("rose-pricing")
    usage = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    replies = [ModelReply(text, usage=usage, finish_reason="length" if n == 0 else None)
               for n, text in enumerate(scenario.replies)]  # fmt: skip
    with TraceWriter(tmp_path / "run.jsonl") as writer:
        scenario.executor(ScriptedModel(replies), clock=ManualClock(tick=0.001)).invoke(scenario.inputs(), [writer])
    first = _exported(tmp_path, tmp_path / "run.jsonl").of_kind("LLM")[0].attributes
    assert (
        first[om.LLM_TOKEN_COUNT_PROMPT],
        first[om.LLM_TOKEN_COUNT_COMPLETION],
        first[om.LLM_TOKEN_COUNT_TOTAL],
    ) == (
        120,
        30,
        150,
    )
    assert (first[on.GEN_AI_USAGE_INPUT_TOKENS], first[on.GEN_AI_USAGE_OUTPUT_TOKENS]) == (120, 30)
    assert first[on.LLM_FINISH_REASON] == "length" and first[on.GEN_AI_RESPONSE_FINISH_REASONS] == ["length"]
    fallback = _exported(tmp_path, FIXTURES / "fallback_model.jsonl").of_kind("LLM")[0].attributes
    assert (fallback[on.GEN_AI_REQUEST_MODEL], fallback[on.GEN_AI_RESPONSE_MODEL]) == ("primary", "backup")
    assert (fallback[om.LLM_MODEL_NAME], fallback[on.LLM_RESPONSE_MODEL_NAME]) == ("primary", "backup")


def test_every_run_has_its_own_run_id_even_two_exports_of_one_file(tmp_path):
    rose = FIXTURES / "rose_pricing.jsonl"
    roots = _exported(tmp_path, rose, rose, FIXTURES / "parallel_tools.jsonl").roots
    ids = [root.attributes[om.RUN_ID] for root in roots]
    assert len(set(ids)) == 3 and len({root.trace_id for root in roots}) == 3
    recorded = sorted(root.attributes[on.RECORDED_RUN_ID] for root in roots)
    assert recorded == ["parallel-tools", "rose-pricing", "rose-pricing"]  # the events' own, kept beside it
    assert {root.attributes[on.GEN_AI_AGENT_NAME] for root in roots} == {"rose-pricing", "parallel-tools"}
    scenario = get_scenario("rose-pricing")
    live = []
    with OTLPReceiver() as receiver:
        for _ in range(2):
            listener = OTelListener(receiver.url, agent_name="rose")
            scenario.executor(ScriptedModel(scenario.replies), run_id_factory=lambda: "same").invoke(
                scenario.inputs(), [listener]
            )
            assert listener.close() is None
    live = [s for s in receiver.spans if s.kind == "AGENT"]
    assert len({s.attributes[om.RUN_ID] for s in live}) == 2
    assert {s.attributes[on.RECORDED_RUN_ID] for s in live} == {"same"}


def test_an_unhandled_tool_error_fails_its_tool_its_round_and_the_run(tmp_path):
    tree = _exported(tmp_path, FIXTURES / "tool_error_unhandled.jsonl")
    error = next(e for e in load_trace(FIXTURES / "tool_error_unhandled.jsonl")[1] if e.kind == "chain_error")
    said = f"{error.error_type}: {error.message}"
    (tool,) = tree.of_kind("TOOL")
    assert (tool.status_code, tool.status_message) == (ERROR, said)
    assert [(s.status_code, s.status_message) for s in tree.ancestors(tool)] == [(ERROR, said), (ERROR, said)]
    assert tool.attributes[on.ERROR_TYPE] == error.error_type
    assert [name for name, _t, _a in tool.events] == ["tool_start", "tool_error", "exception"]
    assert tree.of_kind("LLM")[0].status_code == OK


def test_a_handled_tool_error_fails_only_its_tool_which_reports_what_the_model_was_told(tmp_path):
    path = FIXTURES / "tool_error_handled.jsonl"
    told = next(e for e in load_trace(path)[1] if e.kind == "tool_end").observation
    tree = _exported(tmp_path, path)
    failed, searched = tree.of_kind("TOOL")
    assert (failed.status_code, failed.attributes["output.value"]) == (ERROR, told)
    assert [name for name, _t, _a in failed.events] == ["tool_start", "tool_error", "exception", "tool_end"]
    assert searched.status_code == OK and tree.parent(searched) is not failed
    assert {s.status_code for s in tree.spans if s is not failed} == {OK}


def _first_plan(events) -> dict:
    """The first model call's span attributes, the events fed straight to a SpanBuilder."""
    collected = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(collected))
    builder = SpanBuilder(provider.get_tracer("test"), default_redactor(), start_ns=1)
    for event in events:
        builder(event)
    builder.finish()
    spans = sorted(collected.get_finished_spans(), key=lambda span: span.start_time)
    return dict(next(span for span in spans if span.name == "plan").attributes)


@pytest.mark.parametrize(
    "messages",
    [
        [{"role": None, "content": 42}, {}, {"content": {"a": [1]}, "name": ["x"], "tool_call_id": 3}],
        [{"role": {"nested": True}, "content": [{"type": "image_url", "image_url": {"url": "http://x"}}, "raw"]}],
        [{"role": "assistant", "content": None, "tool_calls": [{"function": "not a mapping"}, 7, {"id": 1}]}],
    ],
)
def test_messages_of_any_shape_an_imported_trace_may_hold_export_as_text(messages):
    """An imported trace's messages are untrusted JSON objects: no shape of their values stops the export."""
    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    events = [e.model_copy(update={"messages": messages}) if e.kind == "llm_start" else e for e in events]
    plan = _first_plan(events)
    assert all(isinstance(value, (str, int, tuple)) for value in plan.values())
    assert len(unflatten(plan, om.LLM_INPUT_MESSAGES)) == len(messages)


def test_tool_call_arguments_nested_past_the_json_parser_stay_text():
    deep = "[" * 100_000  # json.loads raises RecursionError, not ValueError
    events = load_trace(FIXTURES / "parallel_tools.jsonl")[1]
    events = [
        e.model_copy(update={"tool_calls": [c.model_copy(update={"arguments": deep}) for c in e.tool_calls]})
        if e.kind == "llm_end" and e.tool_calls
        else e
        for e in events
    ]
    plan = _first_plan(events)
    assert [part["arguments"] for part in json.loads(plan[on.GEN_AI_OUTPUT_MESSAGES])[0]["parts"]] == [deep] * 3
    assert plan["llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments"] == deep
