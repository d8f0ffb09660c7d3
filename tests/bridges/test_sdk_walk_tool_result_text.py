"""An Agents SDK @function_tool that returns a list or a dict (not text), recorded through the real SDK against a
local chat-completions server: its tool_end's observation is the text the model was sent for it (the SDK makes it
str(), Python's repr), as the next model call's tool message says, not a JSON rendering the model never saw."""

from __future__ import annotations

import json
import textwrap

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import start_project, tool_messages, tool_result_of

AGENT = textwrap.dedent(
    """
    import os

    from agents import Agent, OpenAIChatCompletionsModel, function_tool
    from openai import AsyncOpenAI


    @function_tool
    async def search(query: str) -> list[str]:
        \"\"\"Search the catalogue.\"\"\"
        return [f"{query} red", f"{query} white"]


    @function_tool
    def stock(item: str) -> dict:
        \"\"\"How many are in stock.\"\"\"
        return {"item": item, "left": 7}


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    agent = Agent(name="shop", instructions="Find items.", tools=[search, stock], model=model)
    """
)
CALLS = ToolCalls(
    (("call_s", "search", json.dumps({"query": "rose"})), ("call_k", "stock", json.dumps({"item": "rose"})))
)


def test_a_tool_result_that_is_not_text_is_the_text_the_model_was_sent(capsys, tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT, "OpenAI Agents SDK", [CALLS, "Red and white; 7 left."])
    try:
        trace = project.record(capsys, question="Roses?")
    finally:
        project.server.stop()
    sent = tool_messages(project.server.received[1].messages)  # what the model really got on its next call
    assert sent == {"call_s": "['rose red', 'rose white']", "call_k": "{'item': 'rose', 'left': 7}"}
    assert {c: tool_result_of(trace, c).observation for c in sent} == sent
    second = [e for e in trace.events if e.kind == "llm_start"][1]
    assert tool_messages(second.messages) == sent  # the trace's own next round agrees with its tool_end
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err
