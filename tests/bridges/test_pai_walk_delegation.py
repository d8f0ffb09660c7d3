"""pydantic-ai agent delegation as its docs write it (a tool that runs another agent, `await factory_agent.run(...,
usage=ctx.usage)`), twice at once, recorded through the real pydantic-ai against a local chat-completions server: the
delegate's model calls are rounds of the trace, and verify re-runs the whole offline and says OK (they went to the
server unrecorded, and verify of the unchanged agent reached for the network and DIVERGED)."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import check_verify_is_offline, forked_at, start_project, tool_result_of
from tests.helpers.otlp_tree import SpanTree, spans_of_document

AGENT = textwrap.dedent(
    """
    import os

    from pydantic_ai import Agent, RunContext
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatModel("fake-model", provider=provider)
    agent = Agent(model, instructions="Use joke_factory, then pick the best joke.")
    factory_agent = Agent(model, output_type=list[str], instructions="Generate jokes.")


    @agent.tool
    async def joke_factory(ctx: RunContext[None], count: int) -> list[str]:
        \"\"\"Make jokes.\"\"\"
        result = await factory_agent.run(f"Please generate {count} jokes.", usage=ctx.usage)
        return result.output
    """
)


def jokes(call_id: str, *said: str) -> ToolCalls:
    return ToolCalls(((call_id, "final_result", json.dumps({"response": list(said)})),))


REPLIES = [
    ToolCalls((("c1", "joke_factory", json.dumps({"count": 2})), ("c2", "joke_factory", json.dumps({"count": 1})))),
    jokes("f1", "joke A", "joke B"),
    jokes("f2", "joke C"),
    "Joke A is best.",
]


@pytest.fixture
def recorded(capsys, tmp_path, monkeypatch):
    """The agent recorded once against the local server, which is stopped after: (project, trace)."""
    project = start_project(tmp_path, monkeypatch, AGENT, "pydantic-ai", REPLIES)
    try:
        return project, project.record(capsys, question="Tell me a joke")
    finally:
        project.server.stop()


def test_a_delegate_agents_model_calls_are_rounds_answered_offline(capsys, tmp_path, monkeypatch, recorded):
    project, trace = recorded
    assert len(project.server.received) == 4
    starts = [e for e in trace.events if e.kind == "llm_start"]
    assert [s.messages[0]["content"] for s in starts][1:3] == ["Generate jokes.", "Generate jokes."]
    model_events = [e.kind for e in trace.events if e.kind in ("llm_start", "llm_end")]
    assert model_events == ["llm_start", "llm_end"] * 4  # one call at a time, each reply before the next call
    asked = {s.messages[-1]["content"]: trace.events[s.seq + 1] for s in starts[1:3]}
    assert [json.loads(c.arguments) for c in asked["Please generate 2 jokes."].tool_calls] == [
        {"response": ["joke A", "joke B"]}
    ]
    assert tool_result_of(trace, "c1").observation == '["joke A","joke B"]'
    assert tool_result_of(trace, "c2").observation == '["joke C"]'
    assert trace.events[-1].kind == "chain_end" and trace.events[-1].outputs["output"] == "Joke A is best."
    check_verify_is_offline(capsys, monkeypatch)


def test_a_fork_giving_one_delegating_call_a_new_result_answers_the_other_with_its_own_reply(
    capsys, tmp_path, monkeypatch, recorded
):
    # Each delegate call is made by its tool call's code and says so; a fork that gives c1 a new result (its
    # delegate never runs) answers c2's delegate with c2's recorded jokes and the agent with its own reply (before,
    # every later call got the reply one place earlier: c2's delegate got c1's jokes).
    _, trace = recorded
    starts = [e for e in trace.events if e.kind == "llm_start"]
    asked_by = {s.messages[-1]["content"]: s.tool_call_id for s in starts[1:3]}
    assert asked_by == {"Please generate 2 jokes.": "c1", "Please generate 1 jokes.": "c2"}
    at = tool_result_of(trace, "c1").seq
    fork = forked_at(capsys, tmp_path, at, '["joke Z"]')
    assert tool_result_of(fork, "c1").observation == '["joke Z"]'
    assert tool_result_of(fork, "c2").observation == '["joke C"]'
    assert fork.events[-1].kind == "chain_end" and fork.events[-1].outputs["output"] == "Joke A is best."


def test_exported_to_opentelemetry_each_delegates_model_call_is_a_span_inside_its_tool_call(
    capsys, tmp_path, monkeypatch, recorded
):
    # The delegate's reply names the call too: before it did, the llm_end looked for its LLM span in the loop's
    # lane, never found it (it was opened inside the tool call), and the span ended with the run, without the reply.
    code, _, err = loopscope(capsys, "export", "--format", "otlp-json", "run.jsonl", "-o", "spans.json")
    assert code == 0, err
    tree = SpanTree(spans_of_document(json.loads((tmp_path / "spans.json").read_text(encoding="utf-8"))))
    models = tree.of_kind("LLM")
    assert len(models) == 4  # the agent's two calls and one per delegate
    inside_a_tool = [span for span in models if tree.parent(span).kind == "TOOL"]
    assert len(inside_a_tool) == 2
    for span in models:  # each closed by its own reply: what the model said, and when it said it
        assert "output.value" in span.attributes and span.end <= (tree.parent(span).end or span.end), span.name
