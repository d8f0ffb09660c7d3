"""A pydantic-ai agent with deps_type, whose @agent.system_prompt and RunContext tools read ctx.deps, recorded through
the real pydantic-ai against a local chat-completions server: the run is given the declared deps type made with no
arguments, so it runs as the application's does (it failed on `None.user` in the system prompt); a deps type that
needs arguments is said in one line before any file."""

from __future__ import annotations

import json
import textwrap

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import check_refused_before_any_file, start_project, tool_result_of

AGENT = textwrap.dedent(
    """
    import os
    from dataclasses import dataclass

    from pydantic_ai import Agent, RunContext
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider


    @dataclass
    class Deps:
        user: str{default}


    provider = OpenAIProvider(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    agent = Agent(OpenAIChatModel("fake-model", provider=provider), deps_type=Deps)


    @agent.system_prompt
    def who(ctx: RunContext[Deps]) -> str:
        return f"You take flower orders for {ctx.deps.user}."


    @agent.tool
    async def place_order(ctx: RunContext[Deps], item: str, qty: int) -> str:
        \"\"\"Place an order for the user.\"\"\"
        return f"{ctx.deps.user} ordered {qty} x {item}"
    """
)
REPLIES = [ToolCalls((("call_o", "place_order", json.dumps({"item": "rose", "qty": 3})),)), "Ordered 3 roses."]


def test_the_declared_deps_type_is_made_and_given_to_the_run(capsys, tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT.replace("{default}", ' = "ana"'), "pydantic-ai", REPLIES)
    try:
        trace = project.record(capsys, question="Order 3 roses please")
    finally:
        project.server.stop()
    assert trace.events[-1].kind == "chain_end", trace.events[-1]
    assert project.server.received[0].messages[0] == {"role": "system", "content": "You take flower orders for ana."}
    assert tool_result_of(trace, "call_o").observation == "ana ordered 3 x rose"
    assert trace.events[0].settings["deps"] == "Deps()"
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


def test_a_deps_type_that_needs_arguments_is_said_in_one_line_before_any_file(capsys, tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT.replace("{default}", ""), "pydantic-ai", REPLIES)
    check_refused_before_any_file(capsys, project, "the agent takes deps of type Deps", "give Deps's fields defaults")


def test_in_a_chinese_locale_the_deps_refusal_is_chinese(capsys, tmp_path, monkeypatch):
    # The adapter's own refusal is a catalogue message: it was English inside a Chinese "智能体抛出了" line.
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    project = start_project(tmp_path, monkeypatch, AGENT.replace("{default}", ""), "pydantic-ai", REPLIES)
    check_refused_before_any_file(capsys, project, "这个智能体接收类型为 Deps 的 deps", "请给 Deps 的字段设默认值")
