"""The event vocabulary: one frozen pydantic model per kind, joined once in a discriminated union."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, TypeAdapter

# The envelope and records live in base, the kinds of a failing model call in recovery, an MCP tool's in mcp;
# all are re-exported here, so `from executor.events import ...` names every event class.
from .base import (  # noqa: F401 (re-exported)
    SCHEMA_VERSION,
    ActionRecord,
    CalleeRef,
    EventBase,
    SourceRef,
    ToolCallRecord,
    ToolInfo,
    describe_fields,
)
from .frameworks import GuardrailEvent, HandoffEvent, OutputRetryEvent
from .mcp import McpExtractEvent, McpRequestEvent, McpResultEvent
from .recovery import (
    BreakerClosedEvent,
    BreakerHalfOpenEvent,
    BreakerOpenEvent,
    DegradeEvent,
    FallbackEvent,
    PlanErrorEvent,
    RefusalEvent,
)


# Kind names follow LangChain's callbacks where one exists (tool_start = on_tool_start).
class ChainStartEvent(EventBase):
    """The run begins (LangChain: on_chain_start)."""

    kind: Literal["chain_start"] = "chain_start"
    inputs: dict[str, Any]
    """What invoke() was given, e.g. {"input": question}."""
    tools: list[ToolInfo]
    """The tools the agent may call."""
    settings: dict[str, Any]
    """The executor's settings: limits, error handling, model, stop sequences."""


class LLMStartEvent(EventBase):
    """A model call is about to be made (LangChain: on_llm_start)."""

    kind: Literal["llm_start"] = "llm_start"
    model: str
    """The model's name."""
    prompt: str
    """The exact text sent."""
    stop: list[str]
    """Stop sequences: the reply ends where one begins."""
    callee: CalleeRef | None = None
    """Where the called function is (the tool's function, the model class's generate); None if unknown."""
    messages: list[dict[str, Any]] | None = None
    """The chat messages sent, in the OpenAI shape (tool-calling agent; None for a one-prompt call)."""
    tools: list[dict[str, Any]] | None = None
    """The tools offered to the model as JSON-Schema function specs (tool-calling agent)."""
    tool_call_id: str | None = None
    """The tool call this nested call runs inside (the calculator's model call, an agent a tool delegates to), if any."""


class LLMEndEvent(EventBase):
    """The model replied (LangChain: on_llm_end)."""

    kind: Literal["llm_end"] = "llm_end"
    text: str
    """The exact reply."""
    usage: dict[str, int] | None = None
    """Token counts the endpoint reported, when it did."""
    duration: float
    """Seconds from llm_start to the reply, retries and waits included."""
    answered_by: str | None = None
    """The model that answered when a fallback took over; None when the model llm_start named answered."""
    finish_reason: str | None = None
    """Why the endpoint stopped, when it was not a plain "stop" (e.g. "length", "content_filter")."""
    refusal: str | None = None
    """The endpoint's refusal text (OpenAI's message.refusal), when it refused instead of answering."""
    callee: CalleeRef | None = None
    """Where the called function is (the tool's function, the model class's generate); None if unknown."""
    tool_calls: list[ToolCallRecord] | None = None
    """The tool calls the reply asked for, in order (tool-calling agent); None when it asked for none."""
    tool_call_id: str | None = None
    """The tool call this nested call runs inside (the calculator's model call, an agent a tool delegates to), if any."""
    partial: str | None = Field(None, exclude_if=lambda note: note is None)
    """Imported runs: why `text` is not the whole reply (the file lost it, or kept only some chunks)."""
    replaced_surrogates: int = Field(0, exclude_if=lambda count: count == 0)
    """Lone surrogates (half UTF-16 pairs, invalid text) the provider replaced with U+FFFD in
    `text`; written to a trace only when not 0, so clean traces and older ones read the same."""


class AgentActionEvent(EventBase):
    """plan() produced an AgentAction (LangChain: on_agent_action)."""

    kind: Literal["agent_action"] = "agent_action"
    tool: str
    """The tool the model asked for."""
    tool_input: str
    """What to hand it."""
    log: str
    """The model's whole reply."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class AgentFinishEvent(EventBase):
    """plan() produced an AgentFinish, or a limit or return_direct made one (LangChain: on_agent_finish)."""

    kind: Literal["agent_finish"] = "agent_finish"
    return_values: dict[str, Any]
    """What invoke() returns, e.g. {"output": answer}."""
    log: str
    """The model's whole reply ("" when the executor made the finish)."""


class ParseErrorEvent(EventBase):
    """The model's reply did not parse."""

    kind: Literal["parse_error"] = "parse_error"
    error: str
    """The parser's message."""
    llm_output: str
    """The reply that failed to parse."""
    observation: str | None
    """What the agent is told instead (None when handle_parsing_errors is off)."""
    handled: bool
    """True when the run goes on with the observation, False when it stops."""


class InvalidToolEvent(EventBase):
    """The action named a tool the agent does not have."""

    kind: Literal["invalid_tool"] = "invalid_tool"
    requested: str
    """The name the model wrote."""
    available: list[str]
    """The names it could have used."""
    observation: str
    """The observation that tells the model so."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class ToolStartEvent(EventBase):
    """A tool is about to run (LangChain: on_tool_start)."""

    kind: Literal["tool_start"] = "tool_start"
    tool: str
    """The tool's name."""
    tool_input: str
    """The input it is given."""
    callee: CalleeRef | None = None
    """Where the called function is (the tool's function, the model class's generate); None if unknown."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class ToolEndEvent(EventBase):
    """A tool returned (LangChain: on_tool_end)."""

    kind: Literal["tool_end"] = "tool_end"
    tool: str
    """The tool's name."""
    observation: str
    """What it returned, as text: the next prompt's Observation."""
    callee: CalleeRef | None = None
    """Where the called function is (the tool's function, the model class's generate); None if unknown."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class ToolErrorEvent(EventBase):
    """A tool raised (LangChain: on_tool_error)."""

    kind: Literal["tool_error"] = "tool_error"
    tool: str
    """The tool's name."""
    error_type: str
    """The exception's class name."""
    message: str
    """The exception's message."""
    handled: bool
    """True when the error became an observation, False when it ends the run."""
    observation: str | None = None
    """The observation made of it, when handled."""
    callee: CalleeRef | None = None
    """Where the called function is (the tool's function, the model class's generate); None if unknown."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class RetryEvent(EventBase):
    """A failed attempt will be tried again after `delay` (LangChain: on_retry)."""

    kind: Literal["retry"] = "retry"
    target: Literal["llm", "tool"]
    """Whether a model call or a tool failed."""
    name: str
    """The model's or the tool's name."""
    attempt: int
    """The attempt that failed, 1-based."""
    error: str
    """The failure, as "Type: message"."""
    delay: float
    """Seconds waited before the next attempt."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""
    error_class: str | None = Field(None, exclude_if=lambda value: value is None)
    """The failure's class as "module:qualname" (e.g. "openai:RateLimitError"), when a framework's run was
    recorded (a re-run raises that class again when it is loaded); None for loopscope's own loop and in
    traces written before it was recorded."""


class RateLimitWaitEvent(EventBase):
    """The rate limiter made a model call wait."""

    kind: Literal["rate_limit_wait"] = "rate_limit_wait"
    waited: float
    """Seconds waited for a token."""
    tool_call_id: str | None = None
    """The tool call this nested call runs inside (the calculator's model call, an agent a tool delegates to), if any."""


class StepEvent(EventBase):
    """An AgentStep (action, observation) joined intermediate_steps."""

    kind: Literal["step"] = "step"
    action: ActionRecord
    """The action taken."""
    observation: str
    """What came back."""
    n_steps: int
    """How many steps the run has taken, this one included."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class FinishCheckEvent(EventBase):
    """The test that ends the loop or goes round again: `isinstance(output, AgentFinish)` in _call."""

    kind: Literal["finish_check"] = "finish_check"
    is_finish: bool
    """The test's result: True ends the loop."""
    output_type: str
    """What `output` was: "AgentFinish" or "list[AgentStep]"."""
    decided_by: Literal["graph_edge"] | None = Field(None, exclude_if=lambda value: value is None)
    """None: the executor's isinstance test; "graph_edge": a LangGraph agent's edge after its model node,
    which goes to END when the reply has no tool calls and to the tools node when it has."""
    went_to: str | None = Field(None, exclude_if=lambda value: value is None)
    """A graph_edge check only: the node the graph's own edge went to ("__end__" for END), as its routing
    function answered; None when no routing function was seen (or in a trace recorded before this field)."""


class LimitReachedEvent(EventBase):
    """max_iterations or max_execution_time stopped the loop."""

    kind: Literal["limit_reached"] = "limit_reached"
    reason: Literal["max_iterations", "max_execution_time"]
    """Which limit was hit."""
    iterations: int
    """Rounds completed."""
    elapsed: float
    """Seconds the loop ran."""
    early_stopping_method: str
    """How the stop is answered ("force": a fixed message)."""


class CalculatorEvalEvent(EventBase):
    """The calculator handed its model's expression to numexpr."""

    kind: Literal["calculator_eval"] = "calculator_eval"
    expression: str
    """The expression the model wrote."""
    result: str
    """What numexpr computed."""
    tool_call_id: str | None = None
    """The model's id for the tool call this belongs to (tool-calling agent; None in ReAct)."""


class ContextTrimmedEvent(EventBase):
    """The message history was over its budget and older messages were dropped before a model call."""

    kind: Literal["context_trimmed"] = "context_trimmed"
    reason: Literal["context_window", "max_tokens"]
    """Which budget was exceeded: the message count or the token count."""
    dropped: list[dict[str, Any]]
    """The messages left out, oldest first (the system and first user message are always kept)."""
    messages_before: int
    """How many messages the history had."""
    messages_after: int
    """How many the model is sent."""
    tokens_before: int
    """The history's size by the run's token counter."""
    tokens_after: int
    """The size of what the model is sent."""


class SummarizedEvent(EventBase):
    """Older messages were replaced by a summary the model wrote (the summary call precedes this event)."""

    kind: Literal["summarized"] = "summarized"
    replaced: list[dict[str, Any]]
    """The messages the summary stands for, oldest first."""
    summary: dict[str, Any]
    """The message that replaces them in the history."""
    messages_before: int
    """How many messages the history had."""
    messages_after: int
    """How many the model is sent."""
    tokens_before: int
    """The history's size by the run's token counter."""
    tokens_after: int
    """The size of what the model is sent."""


class ChainEndEvent(EventBase):
    """The run ended with a result (LangChain: on_chain_end)."""

    kind: Literal["chain_end"] = "chain_end"
    outputs: dict[str, Any]
    """The result dict's outputs."""


class ChainErrorEvent(EventBase):
    """The run ended with an exception (LangChain: on_chain_error)."""

    kind: Literal["chain_error"] = "chain_error"
    error_type: str
    """The exception's class name."""
    message: str
    """The exception's message."""


# The union, written once; everything else is derived from it.
Event = Annotated[
    ChainStartEvent
    | LLMStartEvent
    | LLMEndEvent
    | AgentActionEvent
    | AgentFinishEvent
    | ParseErrorEvent
    | InvalidToolEvent
    | ToolStartEvent
    | ToolEndEvent
    | ToolErrorEvent
    | RetryEvent
    | RateLimitWaitEvent
    | StepEvent
    | FinishCheckEvent
    | LimitReachedEvent
    | CalculatorEvalEvent
    | ContextTrimmedEvent
    | SummarizedEvent
    | ChainEndEvent
    | ChainErrorEvent
    | FallbackEvent
    | BreakerOpenEvent
    | BreakerHalfOpenEvent
    | BreakerClosedEvent
    | PlanErrorEvent
    | DegradeEvent
    | RefusalEvent
    | McpRequestEvent
    | McpResultEvent
    | McpExtractEvent
    | HandoffEvent
    | GuardrailEvent
    | OutputRetryEvent,
    Field(discriminator="kind"),
]
EVENT_CLASSES: tuple[type[EventBase], ...] = get_args(get_args(Event)[0])
describe_fields(*EVENT_CLASSES)  # before the adapter below builds their schemas
EVENT_KINDS: tuple[str, ...] = tuple(cls.model_fields["kind"].default for cls in EVENT_CLASSES)
CLASS_BY_KIND: dict[str, type[EventBase]] = dict(zip(EVENT_KINDS, EVENT_CLASSES))
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_from_json(line: str | bytes) -> Event:
    """Validate one JSON-encoded event into its typed model."""
    return EVENT_ADAPTER.validate_json(line)
