"""Events particular to another framework's loop: an Agents SDK handoff and guardrail, a pydantic-ai output retry."""

from __future__ import annotations

from typing import Any, Literal

from .base import EventBase, describe_fields


class HandoffEvent(EventBase):
    """One agent handed the conversation to another (OpenAI Agents SDK: a `transfer_to_...` tool call)."""

    kind: Literal["handoff"] = "handoff"
    from_agent: str
    """The agent that handed off."""
    to_agent: str
    """The agent that answers from now on."""
    tool_call_id: str | None = None
    """The model's id for the handoff's tool call, when the framework gave it."""


class GuardrailEvent(EventBase):
    """A guardrail checked the run's input or its final output; a tripped one ends the run."""

    kind: Literal["guardrail"] = "guardrail"
    guardrail: str
    """The guardrail's name."""
    stage: Literal["input", "output"]
    """Whether it checked what the agent was asked or what it answered."""
    tripped: bool
    """True when its tripwire fired: the run stops with an error."""
    info: Any = None
    """What the guardrail reported (its output_info), as plain data."""


class OutputRetryEvent(EventBase):
    """The model's answer failed validation; the reason goes back to it and it is asked again
    (pydantic-ai: a ModelRetry from an output validator, or output that does not fit the type)."""

    kind: Literal["output_retry"] = "output_retry"
    message: str
    """What the model is told (the ModelRetry text or the validation errors)."""
    attempt: int
    """How many times the output has been retried, this one included."""
    tool_call_id: str | None = None
    """The output tool's call id, when the output came as a tool call."""


describe_fields(HandoffEvent, GuardrailEvent, OutputRetryEvent)
