"""A pydantic-ai agent with a structured output_type (answered through its output tool, final_result) whose output is
rejected, by the type (a field that does not validate) and by an @agent.output_validator's ModelRetry, recorded
through the real pydantic-ai against a local chat-completions server: each rejection is an output_retry event with
what the model was told, narrated before the next model call (pydantic-ai sends it as the output tool call's
retried result, which was not seen, so the rounds followed each other with no word of why)."""

from __future__ import annotations

import json
import textwrap

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import narrated, start_project, tool_messages

AGENT = textwrap.dedent(
    """
    import os

    from pydantic import BaseModel
    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider


    class Answer(BaseModel):
        city: str
        temp_c: int


    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = Agent(OpenAIChatModel("fake-model", provider=provider), output_type=Answer, retries=2)


    @agent.output_validator
    def plausible(out: Answer) -> Answer:
        if out.temp_c > 50:
            raise ModelRetry("temperature too high, check units")
        return out
    """
)


def final(call_id: str, temp: object) -> ToolCalls:
    return ToolCalls(((call_id, "final_result", json.dumps({"city": "Paris", "temp_c": temp})),))


def test_a_rejected_output_tool_call_is_an_output_retry_with_what_the_model_was_told(capsys, tmp_path, monkeypatch):
    replies = [final("c1", "hot"), final("c2", 64), final("c3", 18)]
    project = start_project(tmp_path, monkeypatch, AGENT, "pydantic-ai", replies)
    try:
        trace = project.record(capsys, question="Weather in Paris?")
    finally:
        project.server.stop()
    retries = [e for e in trace.events if e.kind == "output_retry"]
    told = [tool_messages(r.messages) for r in project.server.received[1:]]  # what each retry call was sent
    assert [(r.tool_call_id, r.attempt) for r in retries] == [("c1", 1), ("c2", 2)]
    assert [r.message for r in retries] == [told[0]["c1"], told[1]["c2"]]
    assert "temperature too high, check units" in retries[1].message
    kinds = [e.kind for e in trace.events]
    assert kinds.index("output_retry") < kinds.index("llm_start", kinds.index("llm_end"))  # before the next call
    assert "output rejected (retry 2), the model is told:" in narrated(trace)
    assert json.loads(trace.events[-1].outputs["output"]) == {"city": "Paris", "temp_c": 18}
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err
