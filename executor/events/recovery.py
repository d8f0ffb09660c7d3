"""Events of a model call that fails for good and what answers instead: fallbacks, circuit breakers, degradation, refusals."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import EventBase, describe_fields


class FallbackEvent(EventBase):
    """A model failed for good (or its breaker refused the call); the next model answers the same prompt
    (LangChain: Runnable.with_fallbacks)."""

    kind: Literal["fallback"] = "fallback"
    failed_model: str
    """The model that failed."""
    error_type: str
    """The class name of its final error, e.g. "RetriesExhausted" or "CircuitOpenError"."""
    error: str
    """Its final error, as "Type: message"."""
    error_class: str | None = Field(None, exclude_if=lambda value: value is None)
    """Its final error's class as "module:qualname", when a framework's run was recorded (see RetryEvent)."""
    refused: bool = False
    """True when an open circuit breaker refused the call, so it was never sent."""
    next_model: str
    """The model that takes over."""


class BreakerOpenEvent(EventBase):
    """A circuit breaker opened: calls to its endpoint are refused until the cool-down has passed."""

    kind: Literal["breaker_open"] = "breaker_open"
    endpoint: str
    """What the breaker guards (the key breakers are shared by)."""
    model: str
    """The model whose failure opened it."""
    failures: int
    """Failures counted within the window (1 when a half-open trial failed)."""
    window: float
    """Seconds within which the failures were counted."""
    cool_down: float
    """Seconds until a trial call is let through (half-open)."""
    error: str
    """The failure that opened it, as "Type: message"."""
    from_state: Literal["closed", "half_open"]
    """"closed": too many failures; "half_open": the trial call failed."""


class BreakerHalfOpenEvent(EventBase):
    """The cool-down passed: the breaker lets one trial call through."""

    kind: Literal["breaker_half_open"] = "breaker_half_open"
    endpoint: str
    """What the breaker guards."""
    model: str
    """The model making the trial call."""
    open_for: float
    """Seconds the breaker was open, on the run's clock."""


class BreakerClosedEvent(EventBase):
    """A trial call succeeded: the breaker closed and calls flow again."""

    kind: Literal["breaker_closed"] = "breaker_closed"
    endpoint: str
    """What the breaker guards."""
    model: str
    """The model whose trial call succeeded."""


class PlanErrorEvent(EventBase):
    """plan() got no usable action because the model call failed for good; a degrading agent counts it."""

    kind: Literal["plan_error"] = "plan_error"
    error_type: str
    """The class name of the error."""
    message: str
    """The error's message."""
    failures: int
    """Consecutive failures to get a usable action, this one included."""
    degrade_after: int
    """How many such failures switch the agent to its rules."""


class DegradeEvent(EventBase):
    """The agent stopped asking the model and asked its local rules instead."""

    kind: Literal["degrade"] = "degrade"
    failures: int
    """Consecutive failures to get a usable action that led here."""
    last_error: str
    """The last of them, as "Type: message"."""
    question: str
    """The text the rules were matched against."""
    rule: str | None
    """The name of the rule that matched; None when none did (the run then ends with an error)."""
    pattern: str | None
    """That rule's pattern."""
    tool: str | None
    """The tool call the rule produced: the tool's name."""
    tool_input: str | None
    """The tool call the rule produced: its input, taken from the question."""


class RefusalEvent(EventBase):
    """The model refused (or a content filter stopped it); its reply becomes the final answer."""

    kind: Literal["refusal"] = "refusal"
    text: str
    """The refusal, answered as plain text."""
    detected_by: Literal["refusal_field", "content_filter", "refusal_text"]
    """The endpoint's refusal field, finish_reason "content_filter", or typical refusal wording."""


describe_fields(
    FallbackEvent,
    BreakerOpenEvent,
    BreakerHalfOpenEvent,
    BreakerClosedEvent,
    PlanErrorEvent,
    DegradeEvent,
    RefusalEvent,
)
