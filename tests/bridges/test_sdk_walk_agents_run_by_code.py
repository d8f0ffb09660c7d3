"""Agents SDK agents that the user's own code runs, as the SDK's docs write them: an input guardrail whose function
does `await Runner.run(guardrail_agent, input)`, and a function tool that runs an expert agent by hand. Recorded
through the real SDK against a local chat-completions server, their model calls are rounds of the trace, and verify
re-runs the whole offline and says OK (their calls went to the server unrecorded, and verify of the unchanged agent
reached for the network and DIVERGED)."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import check_verify_is_offline, forked_at, start_project, tool_result_of

AGENT = textwrap.dedent(
    """
    import os

    from agents import (
        Agent,
        GuardrailFunctionOutput,
        OpenAIChatCompletionsModel,
        Runner,
        function_tool,
        input_guardrail,
    )
    from openai import AsyncOpenAI
    from pydantic import BaseModel

    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)


    class HomeworkCheck(BaseModel):
        is_homework: bool
        reasoning: str


    guardrail_agent = Agent(name="guardrail", instructions="Is this homework?", output_type=HomeworkCheck, model=model)
    expert = Agent(name="expert", instructions="You know shipping.", model=model)


    @input_guardrail
    async def homework_guardrail(ctx, agent, input):
        result = await Runner.run(guardrail_agent, input, context=ctx.context)
        check = result.final_output
        return GuardrailFunctionOutput(output_info=check, tripwire_triggered=check.is_homework)


    @function_tool
    async def ask_expert(question: str) -> str:
        \"\"\"Ask the shipping expert.\"\"\"
        result = await Runner.run(expert, question)
        return result.final_output


    agent = Agent(
        name="support", instructions="Help.", tools=[ask_expert], input_guardrails=[homework_guardrail], model=model
    )
    """
)
# The agent's first turn asks its model before the guardrail's agent does (both start at once; the SDK's own
# order), then the tool's expert, then the agent again.
REPLIES = [
    ToolCalls((("call_e", "ask_expert", json.dumps({"question": "When does A1 ship?"})),)),
    json.dumps({"is_homework": False, "reasoning": "a support question"}),
    "A1 ships tomorrow.",
    "Your order ships tomorrow.",
]


@pytest.fixture
def recorded(capsys, tmp_path, monkeypatch):
    """The agent recorded once against the local server, which is stopped after: (project, trace)."""
    project = start_project(tmp_path, monkeypatch, AGENT, "OpenAI Agents SDK", REPLIES)
    try:
        return project, project.record(capsys, question="When does my order A1 ship?")
    finally:
        project.server.stop()


def test_agents_the_users_code_runs_are_recorded_and_answered_offline(capsys, tmp_path, monkeypatch, recorded):
    project, trace = recorded
    assert len(project.server.received) == 4
    starts = [e for e in trace.events if e.kind == "llm_start"]
    systems = [s.messages[0]["content"] for s in starts]
    assert systems == ["Help.", "Is this homework?", "You know shipping.", "Help."]
    ends = [e for e in trace.events if e.kind == "llm_end"]
    model_events = [e.kind for e in trace.events if e.kind in ("llm_start", "llm_end")]
    assert model_events == ["llm_start", "llm_end"] * 4  # each round's reply before the next call (one at a time)
    assert [e.text for e in ends[1:]] == REPLIES[1:]
    assert tool_result_of(trace, "call_e").observation == "A1 ships tomorrow."
    assert trace.events[-1].kind == "chain_end" and trace.events[-1].outputs["output"] == "Your order ships tomorrow."
    check_verify_is_offline(capsys, monkeypatch)


def test_a_fork_giving_the_expert_tool_a_new_result_never_hands_out_the_experts_reply(
    capsys, tmp_path, monkeypatch, recorded
):
    # The expert's model call is made by call_e's code: it carries that id, and a fork that gives call_e a new
    # result (so the expert never runs) answers the agent's next call with the agent's own recorded reply, not the
    # expert's (which it did, one call off, before model calls knew their tool call).
    _, trace = recorded
    starts = [e for e in trace.events if e.kind == "llm_start"]
    assert [s.tool_call_id for s in starts] == [None, None, "call_e", None]
    at = tool_result_of(trace, "call_e").seq
    fork = forked_at(capsys, tmp_path, at, "A1 ships on Friday.")
    assert tool_result_of(fork, "call_e").observation == "A1 ships on Friday."
    assert [s.messages[0]["content"] for s in fork.events if s.kind == "llm_start"] == [
        "Help.",
        "Is this homework?",
        "Help.",
    ]
    assert fork.events[-1].kind == "chain_end" and fork.events[-1].outputs["output"] == "Your order ships tomorrow."
