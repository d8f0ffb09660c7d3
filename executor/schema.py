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
