"""The loop's data: AgentAction, AgentFinish and AgentStep, shaped like LangChain's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class AgentAction:
    """The model asked for a tool. `log` is the model's raw text; the other two are parsed from it."""

    tool: str
    tool_input: str
    log: str


@dataclass(frozen=True, slots=True)
class AgentFinish:
    """The model gave its final answer; `return_values["output"]` is what invoke returns."""

    return_values: dict[str, Any] = field(default_factory=dict)
    log: str = ""


class AgentStep(NamedTuple):
    """One round of the loop: the action taken and what came back.

    A NamedTuple, so `action, observation = step` works just like LangChain's
    intermediate_steps pairs.
    """

    action: AgentAction
    observation: Any


@dataclass(frozen=True, slots=True)
class ToolAgentAction(AgentAction):
    """One tool call of a tool-calling model's reply (LangChain: ToolAgentAction).

    `tool_input` is the arguments JSON exactly as the model wrote it (LangChain parses it into a
    dict here; loopscope parses and validates it when the call runs, so bad JSON becomes that
    call's error observation). `message_log` holds the assistant message that asked for the call
    (shared by every call of that reply); `tool_call_id` pairs the call with its `role: tool` result.
    """

    message_log: tuple[dict[str, Any], ...] = ()
    tool_call_id: str = ""
