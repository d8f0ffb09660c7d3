"""Parallel tool calls exported as OTLP: sibling TOOL spans, each with its own call's input, output, status and id."""

from __future__ import annotations

import json
import threading

import pytest
from pydantic import BaseModel

from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, create_tool_calling_agent
from executor.tools.calculator import llm_math_tool
from tests.helpers.otlp_receiver import OTLPReceiver
from tests.helpers.otlp_tree import SpanTree, spans_of_document, unflatten
from tracer import OTelListener, TraceWriter
from tracer.cli import main
from tutorials import get_scenario
from tutorials.weather import FORECASTS, tool_calls

PARALLEL = get_scenario("parallel-tools").fixture
OK, ERROR = 1, 2  # OTLP status codes
GUANGZHOU_TIMEOUT = "the weather service for Guangzhou timed out after 0.5s"


def _tools_of_the_first_round(tree: SpanTree):
    """The TOOL spans, after checking what holds for any run: one AGENT root, rounds under it, and
    every TOOL span directly under a round, never inside another TOOL span."""
    assert [(root.name, root.kind) for root in tree.roots] == [("AgentExecutor", "AGENT")]
    rounds = tree.of_kind("CHAIN")
    assert all(tree.parent(r) is tree.roots[0] for r in rounds)
    tools = tree.of_kind("TOOL")
    assert all(tree.parent(tool) is rounds[0] for tool in tools)
    assert not any(a.kind == "TOOL" for tool in tools for a in tree.ancestors(tool))
    return rounds, {tool.attributes["tool_call.id"]: tool for tool in tools}


def _assert_parallel_fixture(tree: SpanTree):
    rounds, tools = _tools_of_the_first_round(tree)
    assert [s.kind for s in tree.children(rounds[0])] == ["LLM", "TOOL", "TOOL", "TOOL"]
    expected = {
        "call_bj": ("Beijing", FORECASTS["Beijing"], OK, ""),
        "call_sh": ("Shanghai", FORECASTS["Shanghai"], OK, ""),
        "call_gz": ("Guangzhou", GUANGZHOU_TIMEOUT, ERROR, f"ToolError: {GUANGZHOU_TIMEOUT}"),
    }
    for call_id, (city, output, status, message) in expected.items():
        span = tools[call_id]
        assert (span.attributes["input.value"], span.attributes["output.value"]) == (city, output), call_id
        assert (span.status_code, span.status_message) == (status, message), call_id
        assert span.attributes["gen_ai.tool.call.id"] == call_id
        assert json.loads(span.attributes["gen_ai.tool.call.arguments"]) == {"city": city}
        assert span.attributes["gen_ai.tool.call.result"] == output
    errors = [(name, attrs) for name, _t, attrs in tools["call_gz"].events if name == "exception"]
    assert errors == [("exception", {"exception.type": "ToolError", "exception.message": GUANGZHOU_TIMEOUT})]
    # the lanes overlap and each ends at its own call's end: Beijing (0.3 s), Guangzhou (0.5 s), Shanghai (2 s)
    by_end = sorted(tools, key=lambda call_id: tools[call_id].end)
    assert by_end == ["call_bj", "call_gz", "call_sh"]
    assert max(span.start for span in tools.values()) < min(span.end for span in tools.values())
    # the model call that asked for them says so, one tool call per entry
    plan = tree.children(rounds[0])[0]
    replies = unflatten(plan.attributes, "llm.output_messages")
    assert len(replies) == 1 and replies[0]["message.role"] == "assistant" and "message.content" not in replies[0]
    calls = unflatten(replies[0], "message.tool_calls")
    assert [(c["tool_call.id"], c["tool_call.function.name"]) for c in calls] == [
        ("call_bj", "get_weather"),
        ("call_sh", "get_weather"),
        ("call_gz", "get_weather"),
    ]
    assert json.loads(calls[2]["tool_call.function.arguments"]) == {"city": "Guangzhou"}
    assert plan.attributes["gen_ai.response.finish_reasons"] == ["tool_call"]


def test_the_parallel_fixture_as_otlp_json_has_three_sibling_tool_spans_each_with_its_own_call(tmp_path):
    out = tmp_path / "parallel.json"
    assert main(["export", "--format", "otlp-json", str(PARALLEL), "-o", str(out)]) == 0
    _assert_parallel_fixture(SpanTree(spans_of_document(json.loads(out.read_text()))))


def test_the_parallel_fixture_sent_to_a_collector_decodes_to_the_same_siblings(capsys):
    """What a collector receives: the protobuf POST, decoded with opentelemetry-proto."""
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(PARALLEL)]) == 0
    assert "sent 8 spans" in capsys.readouterr().out
    _assert_parallel_fixture(SpanTree(receiver.spans))


class City(BaseModel):
    city: str


def _first_call_ends_last(listeners: list) -> list:
    """A reply of three calls run at once: call_1 (Lhasa) waits until the other two have ended, and
    call_2 is the calculator, whose own model call runs inside its call. Returns the events."""
    others_ended = threading.Event()
    ended: set[str] = set()

    def lookup(city: str) -> str:
        if city == "Lhasa":
            others_ended.wait(timeout=10)
        return f"{city}: clear skies"

    def watch(event) -> None:
        events.append(event)
        if event.kind == "tool_end" and event.tool_call_id in ("call_2", "call_3"):
            ended.add(event.tool_call_id)
            if len(ended) == 2:
                others_ended.set()

    model = ScriptedModel(
        [
            tool_calls(
                ("call_1", "lookup", {"city": "Lhasa"}),
                ("call_2", "Calculator", {"tool_input": "2 + 2"}),
                ("call_3", "lookup", {"city": "Xiamen"}),
            ),
            "```text\n2 + 2\n```",  # the calculator's own model call
            "Lhasa and Xiamen are clear; 2 + 2 = 4.",
        ]
    )
    tools = [Tool(name="lookup", description="Weather in a city.", func=lookup, args_schema=City), llm_math_tool(model)]
    agent = create_tool_calling_agent(model, tools, "Answer with the tools.")
    events: list = []
    AgentExecutor(agent, tools, clock=ManualClock(tick=0.001)).invoke(
        {"input": "Weather and sums?"}, [watch, *listeners]
    )
    ends = [e.tool_call_id for e in events if e.kind == "tool_end"]
    assert ends[-1] == "call_1", ends  # the run really had the first-issued call finish last
    return events


def _assert_first_ends_last(tree: SpanTree):
    _rounds, tools = _tools_of_the_first_round(tree)
    assert sorted(tools) == ["call_1", "call_2", "call_3"]
    assert max(tools.values(), key=lambda span: span.end) is tools["call_1"]
    # which worker thread starts first is the threads' business; each span is its own call's either way
    assert max(span.start for span in tools.values()) < tools["call_1"].end
    assert [(t.name, t.attributes["input.value"], t.attributes["output.value"]) for _i, t in sorted(tools.items())] == [
        ("lookup", "Lhasa", "Lhasa: clear skies"),
        ("Calculator", "2 + 2", "Answer: 4"),
        ("lookup", "Xiamen", "Xiamen: clear skies"),
    ]
    assert {t.status_code for t in tools.values()} == {OK}
    # the calculator's model call sits inside its own call's span, not in another lane's
    nested = [s for s in tree.of_kind("LLM") if tree.parent(s).kind == "TOOL"]
    assert [(s.name, tree.parent(s).attributes["tool_call.id"]) for s in nested] == [("calculate", "call_2")]
    assert [s.kind for s in tree.children(tools["call_1"])] == []


def test_a_run_whose_first_call_ends_last_exports_siblings_each_closed_by_its_own_end(tmp_path, capsys):
    with TraceWriter(tmp_path / "run.jsonl") as writer:
        _first_call_ends_last([writer])
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(tmp_path / "run.jsonl")]) == 0
    _assert_first_ends_last(SpanTree(receiver.spans))
    assert main(["export", "--format", "otlp-json", str(tmp_path / "run.jsonl"), "-o", str(tmp_path / "s.json")]) == 0
    _assert_first_ends_last(SpanTree(spans_of_document(json.loads((tmp_path / "s.json").read_text()))))


def test_the_live_listener_builds_the_same_siblings_while_the_calls_run():
    with OTLPReceiver() as receiver:
        listener = OTelListener(receiver.url)
        _first_call_ends_last([listener])
        assert listener.close() is None
    _assert_first_ends_last(SpanTree(receiver.spans))


@pytest.mark.parametrize("arguments", ['{"city": ', '{"town": "Lhasa"}'])
def test_a_call_refused_before_its_tool_ran_is_its_own_failed_tool_span(tmp_path, arguments):
    """Arguments that do not parse or fit: the executor emits tool_error with no tool_start."""
    reply = tool_calls(("call_ok", "lookup", {"city": "Xiamen"}))
    bad = type(reply.tool_calls[0])("call_bad", "lookup", arguments)
    model = ScriptedModel([type(reply)("", tool_calls=(bad, *reply.tool_calls)), "Xiamen is clear."])
    tools = [Tool(name="lookup", description="Weather.", func=lambda city: f"{city}: clear", args_schema=City)]
    with TraceWriter(tmp_path / "run.jsonl") as writer:
        AgentExecutor(create_tool_calling_agent(model, tools), tools).invoke({"input": "?"}, [writer])
    with OTLPReceiver() as receiver:
        assert main(["export", "--otlp", receiver.url, str(tmp_path / "run.jsonl")]) == 0
    _rounds, tools_by_id = _tools_of_the_first_round(SpanTree(receiver.spans))
    refused, ran = tools_by_id["call_bad"], tools_by_id["call_ok"]
    assert refused.status_code == ERROR and refused.status_message.startswith("ToolArgumentsError: the arguments")
    assert refused.attributes["input.value"] == arguments  # what the model wrote: the tool was handed nothing
    assert refused.attributes["output.value"].startswith("Error: the arguments for lookup")
    assert (ran.status_code, ran.attributes["output.value"]) == (OK, "Xiamen: clear")
