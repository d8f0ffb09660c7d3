"""A streamed Agents SDK run (Runner.run_streamed, which Agent.as_tool(on_stream=...) also uses) through loopscope's
model: recorded against the local chat-completions server and answered offline from the recording, each model call
given whole (the stream's piece-by-piece text is not kept)."""

from __future__ import annotations

import asyncio
import textwrap

from agents import RunConfig, Runner

from tests.bridges.test_openai_agents_agent import AGENT
from tests.helpers.fake_openai_server import FakeOpenAIServer
from tests.helpers.framework_e2e import ANSWER, OBSERVATIONS, PARALLEL_CALLS
from tracer import Trace
from tracer.agents.frameworks import answers_in_order, recorded_replies
from tracer.bridges.framework_events import FrameworkRun
from tracer.bridges.openai_agents_agent import ToolRecorder, models_recorded


def streamed_run(agent, path, answer=None):
    """The user's own Runner.run_streamed, while loopscope's model and tool recorder stand in: what it streamed,
    and its final output."""
    run = FrameworkRun(path, "openai-agents", "Runner.run")
    tools = ToolRecorder(run)

    async def drain():
        result = Runner.run_streamed(
            agent, "Weather?", run_config=RunConfig(tracing_disabled=True, tool_error_formatter=tools.formatter)
        )
        kinds = [event.type async for event in result.stream_events()]
        return kinds, result.final_output

    try:
        with models_recorded(agent, run, answer), tools.installed(agent):
            return asyncio.run(drain())
    finally:
        run.close()


def test_a_streamed_run_is_recorded_and_then_answered_offline_from_its_recording(tmp_path, monkeypatch):
    server = FakeOpenAIServer([PARALLEL_CALLS, ANSWER]).start()
    monkeypatch.setenv("MY_APP_BASE_URL", server.base_url)
    try:
        namespace: dict = {}
        exec(textwrap.dedent(AGENT), namespace)  # the user's module
        kinds, output = streamed_run(namespace["agent"], tmp_path / "streamed.jsonl")
    finally:
        server.stop()
    assert output == ANSWER and "run_item_stream_event" in kinds
    assert len(server.received) == 2 and not any(r.body.get("stream") for r in server.received)  # asked whole
    trace = Trace.load(tmp_path / "streamed.jsonl")
    assert [e.kind for e in trace.events].count("llm_start") == 2
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == OBSERVATIONS

    replies = recorded_replies(trace.events)  # offline now: the server is gone
    _, again = streamed_run(namespace["agent"], tmp_path / "again.jsonl", answers_in_order(replies))
    assert again == ANSWER
    assert [e.kind for e in Trace.load(tmp_path / "again.jsonl").events] == [e.kind for e in trace.events]
