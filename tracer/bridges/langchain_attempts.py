"""Failed tool and model calls held until it is known what came of them: a retry, a fallback, an observation, the run's error."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import FrameType
from typing import Any
from uuid import UUID

from executor.events import FallbackEvent, RetryEvent, SourceRef, ToolEndEvent, ToolErrorEvent

from .langchain_recorder import TraceRecorder
from .langchain_values import plain

# The hooks in which LangChain's retrying middleware (ToolRetryMiddleware, ModelRetryMiddleware) call
# the tool or the model again; their `self` holds the settings and `delay` the wait they chose.
RETRY_HOOKS = frozenset({"wrap_tool_call", "awrap_tool_call", "wrap_model_call", "awrap_model_call"})
# A middleware's settings worth showing beside its retries (LangChain's names).
RETRY_SETTINGS = ("max_retries", "backoff_factor", "initial_delay", "max_delay", "jitter", "on_failure")


@dataclass
class Failure:
    """One failed attempt: what failed, how, when (on the recorder's clock) and where."""

    name: str  # the tool's or the model's name
    attempt: int  # 1-based
    error_type: str
    message: str
    at: float
    stack: tuple[SourceRef, ...]
    run_id: UUID
    parent: UUID | None
    tool_call_id: str | None = None
    started: float = 0.0  # when the first attempt of this call began (a model call's duration counts from it)
    callee: Any = None  # the tool's function (CalleeRef), for the events that end the call
    error_class: str | None = None  # "module:qualname", so that a re-run can raise the same class

    @property
    def error(self) -> str:
        return f"{self.error_type}: {self.message}"


def retrying_middleware(start: FrameType | None = None) -> tuple[Any, Any] | None:
    """(the retrying middleware on the stack, the `delay` it computed), found by the hook it runs in
    and the settings it has (initial_delay, backoff_factor, max_delay), or None."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name in RETRY_HOOKS:
            local = frame.f_locals
            middleware = local.get("self")
            if all(hasattr(middleware, name) for name in ("initial_delay", "backoff_factor", "max_delay")):
                return middleware, local.get("delay")
        frame = frame.f_back
    return None


def middleware_origin(found: tuple[Any, Any] | None) -> dict[str, Any]:
    """What a retry event's origin says of the middleware that retried: its name, settings and chosen delay."""
    if found is None:
        return {}
    middleware, delay = found
    settings = {name: _setting(getattr(middleware, name, None)) for name in RETRY_SETTINGS}
    origin: dict[str, Any] = {"middleware": {"name": str(getattr(middleware, "name", type(middleware).__name__))}}
    origin["middleware"].update(settings)
    if isinstance(delay, (int, float)):
        origin["planned_delay"] = float(delay)  # calculate_delay's figure; the event's delay is the wait measured
    return origin


def _setting(value: Any) -> Any:
    if callable(value):  # a custom on_failure or retry_on function: its name
        return f"<function {getattr(value, '__name__', type(value).__name__)}>"
    return plain(value)


class FailedAttempts:
    """What LangChain's callbacks say of a failure (on_tool_error, on_llm_error) is not yet what the
    loop did with it: ToolRetryMiddleware calls the tool again (a retry, after a wait the handler
    measures), gives up with the error as the observation (on_failure="continue"), or lets it end the
    run; a failed model call is asked again by the same node (retry) or another model takes over
    (fallback). So failures are held here and written once the next callback tells which."""

    def __init__(self, recorder: TraceRecorder) -> None:
        self.recorder = recorder
        self.tools: dict[str, Failure] = {}  # tool call id (or the tool run's id) -> its failed attempt
        self.models: dict[UUID, Failure] = {}  # the run that called the model -> its failed call
        self.tool_attempts: dict[str, int] = {}
        self.model_attempts: dict[UUID, int] = {}
        self.answered_by: dict[UUID, str] = {}  # the run that called -> the model that took over

    # -- tools --------------------------------------------------------------------------------
    def tool_failed(self, key: str, failure: Failure) -> None:
        failure.attempt = self.tool_attempts.get(key, 1)
        self.tools[key] = failure

    def tool_retried(self, key: str, run_id: UUID, parent: UUID | None, stack: tuple[SourceRef, ...]) -> bool:
        """The tool is called again for the same call: its failed attempt becomes a retry event."""
        failure = self.tools.pop(key, None)
        if failure is None:
            return False
        self.tool_attempts[key] = failure.attempt + 1
        self._retry("tool", failure, run_id, parent, stack)
        return True

    def tool_gave_up(self, key: str, observation: str) -> bool:
        """The call ended with a message instead of the tool's result: the error, handled."""
        failure = self.tools.pop(key, None)
        if failure is None:
            return False
        common: dict[str, Any] = {"tool": failure.name, "tool_call_id": failure.tool_call_id, "callee": failure.callee}
        emit, where = self.recorder.emit, (failure.run_id, failure.parent, failure.stack)
        emit(
            ToolErrorEvent,
            "on_chain_end",
            *where,
            error_type=failure.error_type,
            message=failure.message,
            handled=True,
            observation=observation,
            **common,
        )
        emit(ToolEndEvent, "on_chain_end", *where, observation=observation, **common)
        return True

    def tools_ended(self, handled: bool) -> None:
        """The run ended: a failure still held is what ended it (an error), or something the run got
        past without saying how (it finished)."""
        failures, self.tools = list(self.tools.values()), {}
        for failure in failures:
            self.recorder.emit(
                ToolErrorEvent,
                "on_tool_error",
                failure.run_id,
                failure.parent,
                failure.stack,
                tool=failure.name,
                error_type=failure.error_type,
                message=failure.message,
                handled=handled,
                tool_call_id=failure.tool_call_id,
                callee=failure.callee,
            )

    # -- models -------------------------------------------------------------------------------
    def model_failed(self, parent: UUID, failure: Failure) -> None:
        failure.attempt = self.model_attempts.get(parent, 1)
        self.models[parent] = failure

    def model_asked_again(
        self, parent: UUID | None, name: str, run_id: UUID, stack: tuple[SourceRef, ...]
    ) -> Failure | None:
        """The same caller asks a model again after a failure: the same model is a retry, another a
        fallback. Returns the failure (whose call the new one continues), or None."""
        failure = self.models.pop(parent, None) if parent is not None else None
        if failure is None:
            return None
        if name == failure.name:
            self._retry("llm", failure, run_id, parent, stack)
            self.model_attempts[parent] = failure.attempt + 1  # type: ignore[index]
        else:
            self.recorder.emit(
                FallbackEvent,
                "on_chat_model_start",
                run_id,
                parent,
                stack,
                failed_model=failure.name,
                error_type=failure.error_type,
                error=failure.error,
                error_class=failure.error_class,
                next_model=name,
            )
            if parent is not None:
                self.answered_by[parent], self.model_attempts[parent] = name, 1
        return failure

    def _retry(
        self, target: str, failure: Failure, run_id: UUID, parent: UUID | None, stack: tuple[SourceRef, ...]
    ) -> None:
        found = retrying_middleware(sys._getframe(2))
        self.recorder.emit(
            RetryEvent,
            "on_tool_start" if target == "tool" else "on_chat_model_start",
            run_id,
            parent,
            stack,
            extra_origin=middleware_origin(found),
            target=target,
            name=failure.name,
            attempt=failure.attempt,
            error=failure.error,
            error_class=failure.error_class,
            delay=max(0.0, self.recorder.elapsed() - failure.at),
            tool_call_id=failure.tool_call_id,
            # When the attempt failed, as loopscope's own loop stamps a retry: its wait runs from here to the
            # next attempt, which is when LangChain lets the handler know there was a retry at all.
            at=failure.at,
        )
