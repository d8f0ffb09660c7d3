"""The event vocabulary: one frozen pydantic model per kind, joined in a discriminated union."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# Bump when a field is renamed or removed; trace files carry it in their header.
SCHEMA_VERSION = 1


class SourceRef(BaseModel):
    """Where in the executor's source an event was yielded."""

    model_config = ConfigDict(frozen=True)
    file: str  # relative to the project root, e.g. "executor/agent_executor.py"
    line: int
    function: str


class ToolInfo(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    description: str
    return_direct: bool = False


class ActionRecord(BaseModel):
    """An AgentAction as it appears inside an event (tool, tool_input, log)."""

    model_config = ConfigDict(frozen=True)
    tool: str
    tool_input: str
    log: str


class EventBase(BaseModel):
    """The envelope every event carries."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seq: int
    run_id: str
    t: float
    iteration: int
    frames: tuple[str, ...]
    source: SourceRef


# Kind names follow LangChain's callbacks where one exists (tool_start = on_tool_start).
class ChainStart(EventBase):
    kind: Literal["chain_start"] = "chain_start"
    inputs: dict[str, Any]
    tools: list[ToolInfo]
    settings: dict[str, Any]


class LLMStart(EventBase):
    kind: Literal["llm_start"] = "llm_start"
    model: str
    prompt: str
    stop: list[str]


class LLMEnd(EventBase):
    kind: Literal["llm_end"] = "llm_end"
    text: str
    usage: dict[str, int] | None = None
    duration: float


class AgentActionEvent(EventBase):
    kind: Literal["agent_action"] = "agent_action"
    tool: str
    tool_input: str
    log: str


class AgentFinishEvent(EventBase):
    kind: Literal["agent_finish"] = "agent_finish"
    return_values: dict[str, Any]
    log: str


class ParseError(EventBase):
    kind: Literal["parse_error"] = "parse_error"
    error: str
    llm_output: str
    observation: str | None
    handled: bool


class InvalidTool(EventBase):
    kind: Literal["invalid_tool"] = "invalid_tool"
    requested: str
    available: list[str]
    observation: str


class ToolStart(EventBase):
    kind: Literal["tool_start"] = "tool_start"
    tool: str
    tool_input: str


class ToolEnd(EventBase):
    kind: Literal["tool_end"] = "tool_end"
    tool: str
    observation: str


class ToolErrorEvent(EventBase):
    kind: Literal["tool_error"] = "tool_error"
    tool: str
    error_type: str
    message: str
    handled: bool
    observation: str | None = None


class Retry(EventBase):
    kind: Literal["retry"] = "retry"
    target: Literal["llm", "tool"]
    name: str
    attempt: int  # the attempt that failed, 1-based
    error: str
    delay: float


class RateLimitWait(EventBase):
    kind: Literal["rate_limit_wait"] = "rate_limit_wait"
    waited: float


class Step(EventBase):
    kind: Literal["step"] = "step"
    action: ActionRecord
    observation: str
    n_steps: int


class FinishCheck(EventBase):
    kind: Literal["finish_check"] = "finish_check"
    is_finish: bool
    output_type: str


class LimitReached(EventBase):
    kind: Literal["limit_reached"] = "limit_reached"
    reason: Literal["max_iterations", "max_execution_time"]
    iterations: int
    elapsed: float
    early_stopping_method: str


class CalculatorEval(EventBase):
    kind: Literal["calculator_eval"] = "calculator_eval"
    expression: str
    result: str


class ChainEnd(EventBase):
    kind: Literal["chain_end"] = "chain_end"
    outputs: dict[str, Any]


class ChainError(EventBase):
    kind: Literal["chain_error"] = "chain_error"
    error_type: str
    message: str


EVENT_CLASSES: tuple[type[EventBase], ...] = (
    ChainStart, LLMStart, LLMEnd, AgentActionEvent, AgentFinishEvent, ParseError,
    InvalidTool, ToolStart, ToolEnd, ToolErrorEvent, Retry, RateLimitWait, Step,
    FinishCheck, LimitReached, CalculatorEval, ChainEnd, ChainError,
)
EVENT_KINDS: tuple[str, ...] = tuple(cls.model_fields["kind"].default for cls in EVENT_CLASSES)
CLASS_BY_KIND: dict[str, type[EventBase]] = dict(zip(EVENT_KINDS, EVENT_CLASSES))

Event = Annotated[
    Union[
        ChainStart, LLMStart, LLMEnd, AgentActionEvent, AgentFinishEvent, ParseError,
        InvalidTool, ToolStart, ToolEnd, ToolErrorEvent, Retry, RateLimitWait, Step,
        FinishCheck, LimitReached, CalculatorEval, ChainEnd, ChainError,
    ],
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_from_json(line: str | bytes) -> EventBase:
    """Validate one JSON-encoded event into its typed model."""
    return EVENT_ADAPTER.validate_json(line)
