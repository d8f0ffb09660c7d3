"""An Agents SDK agent with a structured output_type (a pydantic model) and a pydantic-ai agent with one, recorded
through the real framework against a local chat-completions server: the run's answer in chain_end is the output as
JSON text, which the narrator (`loopscope debug --print`) tells, rather than a dict it cannot read."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import narrated, start_project

RECEIPT = {"summary": "3 roses for ana", "total": 15}
SDK_AGENT = textwrap.dedent(
    """
    import os

    from agents import Agent, OpenAIChatCompletionsModel
    from openai import AsyncOpenAI
    from pydantic import BaseModel


    class Receipt(BaseModel):
        summary: str
        total: int


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    agent = Agent(name="orders", instructions="Take orders.", model=model, output_type=Receipt)
    """
)
PAI_AGENT = textwrap.dedent(
    """
    import os

    from pydantic import BaseModel
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider


    class Receipt(BaseModel):
        summary: str
        total: int


    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = Agent(OpenAIChatModel("fake-model", provider=provider), output_type=Receipt)
    """
)
CASES = {
    "OpenAI Agents SDK": (SDK_AGENT, json.dumps(RECEIPT)),  # the SDK's structured output is the reply's JSON text
    "pydantic-ai": (PAI_AGENT, ToolCalls((("call_f", "final_result", json.dumps(RECEIPT)),))),  # its output tool
}


@pytest.mark.parametrize("framework", list(CASES))
def test_a_structured_output_is_the_answer_as_json_text_and_is_narrated(capsys, tmp_path, monkeypatch, framework):
    module, reply = CASES[framework]
    project = start_project(tmp_path, monkeypatch, module, framework, [reply])
    try:
        trace = project.record(capsys, question="Order 3 roses please")
    finally:
        project.server.stop()
    output = trace.events[-1].outputs["output"]
    assert trace.events[-1].kind == "chain_end" and json.loads(output) == RECEIPT
    assert f"Output: {json.dumps(RECEIPT)}" in narrated(trace)
    code, out, err = loopscope(capsys, "debug", "--print", "run.jsonl")
    assert code == 0 and "3 roses for ana" in out, err
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


@pytest.mark.parametrize("framework", list(CASES))
def test_a_trace_that_kept_the_output_as_an_object_still_verifies(capsys, tmp_path, monkeypatch, framework):
    module, reply = CASES[framework]
    project = start_project(tmp_path, monkeypatch, module, framework, [reply])
    try:
        project.record(capsys, question="Order 3 roses please")
    finally:
        project.server.stop()
    run = project.folder / "run.jsonl"
    lines = run.read_text("utf-8").splitlines()
    end = json.loads(lines[-1])
    end["outputs"]["output"] = json.loads(end["outputs"]["output"])  # as loopscope wrote it before: an object
    run.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n", "utf-8")
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err
    end["outputs"]["output"] = {**RECEIPT, "total": 999}  # a different object is still a difference
    run.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n", "utf-8")
    code, out, _err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 1 and "chain_end" in out
