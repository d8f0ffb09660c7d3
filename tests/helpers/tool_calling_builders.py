"""Builders for tool-calling tests: scripted tool-call replies and an executor around them."""

from __future__ import annotations

import json

from executor import AgentExecutor, ManualClock, ModelReply, ScriptedModel, Tool, ToolCall, create_tool_calling_agent


def calls(*specs, text: str = "") -> ModelReply:
    """A reply asking for tool calls: each spec is (id, tool, arguments dict or raw JSON text)."""
    return ModelReply(
        text,
        tool_calls=tuple(
            ToolCall(call_id, tool, args if isinstance(args, str) else json.dumps(args))
            for call_id, tool, args in specs
        ),
    )


def tool_calling_executor(
    replies, tools, system_prompt="You are a careful assistant.", agent_settings=None, **settings
):
    """(executor, model) for a scripted tool-calling run."""
    model = ScriptedModel(replies)
    agent = create_tool_calling_agent(model, tools, system_prompt, **(agent_settings or {}))
    settings.setdefault("clock", ManualClock(tick=0.001))
    return AgentExecutor(agent=agent, tools=tools, **settings), model


def text_tool(name: str, func, **kwargs) -> Tool:
    return Tool(name=name, description=f"{name} takes one text input", func=func, **kwargs)
