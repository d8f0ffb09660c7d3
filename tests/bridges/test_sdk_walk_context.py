"""An Agents SDK agent whose tools and dynamic instructions read a context object (RunContextWrapper[UserCtx]), as the
SDK's docs write one, recorded through the real SDK against a local chat-completions server: the run is given the
context type the agent declares, made with no arguments, so it runs as the application's does (it failed on
`None.user` at the first dynamic instructions); a type that needs arguments is said in one line before any file."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import check_refused_before_any_file, start_project, tool_result_of

AGENT = textwrap.dedent(
    """
    import os
    from dataclasses import dataclass

    from agents import Agent, OpenAIChatCompletionsModel, RunContextWrapper, function_tool
    from openai import AsyncOpenAI
    from pydantic import BaseModel


    @dataclass
    class UserCtx:
        user: str{default}


    class Order(BaseModel):
        item: str
        qty: int


    @function_tool
    async def place_order(ctx: RunContextWrapper[UserCtx], order: Order) -> str:
        \"\"\"Place an order for the user.\"\"\"
        return f"{ctx.context.user} ordered {order.qty} x {order.item}"


    def orders_instructions(ctx: RunContextWrapper[UserCtx], agent) -> str:
        return f"You take orders for {ctx.context.user}."


    client = AsyncOpenAI(base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
    model = OpenAIChatCompletionsModel(model="fake-model", openai_client=client)
    orders = Agent{generic}(name="orders", instructions=orders_instructions, tools=[place_order], model=model)
    agent = Agent{generic}(name="triage", instructions="Route the user.", handoffs=[orders], model=model)
    """
)
REPLIES = [
    ToolCalls((("call_h", "transfer_to_orders", "{}"),)),
    ToolCalls((("call_o", "place_order", json.dumps({"order": {"item": "rose", "qty": 3}})),)),
    "Ordered 3 roses for ana.",
]


@pytest.mark.parametrize("generic", ["[UserCtx]", ""], ids=["Agent[UserCtx]", "from-the-tool's-annotation"])
def test_the_declared_context_type_is_made_and_given_to_the_run(capsys, tmp_path, monkeypatch, generic):
    module = AGENT.replace("{default}", ' = "ana"').replace("{generic}", generic)
    project = start_project(tmp_path, monkeypatch, module, "OpenAI Agents SDK", REPLIES)
    try:
        trace = project.record(capsys, question="Order 3 roses please")
    finally:
        project.server.stop()
    assert trace.events[-1].kind == "chain_end", trace.events[-1]
    assert project.server.received[1].messages[0] == {"role": "system", "content": "You take orders for ana."}
    assert tool_result_of(trace, "call_o").observation == "ana ordered 3 x rose"
    assert trace.events[0].settings["context"] == "UserCtx()"
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", "my_app.py:agent")
    assert code == 0, out + err


def test_a_context_type_that_needs_arguments_is_said_in_one_line_before_any_file(capsys, tmp_path, monkeypatch):
    module = AGENT.replace("{default}", "").replace("{generic}", "[UserCtx]")
    project = start_project(tmp_path, monkeypatch, module, "OpenAI Agents SDK", REPLIES)
    check_refused_before_any_file(capsys, project, "takes a context of type UserCtx", "give UserCtx's fields defaults")
