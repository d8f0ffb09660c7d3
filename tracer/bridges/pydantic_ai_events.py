"""A pydantic-ai run made into loopscope's tool and retry events: the nodes Agent.iter hands over, and each tool's
execution seen through a capability (pydantic-ai's public hook around it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic_ai import ModelRetry, ToolReturn
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ToolRetryError
from pydantic_ai.messages import (
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    ModelRequest,
    RetryFeedbackPart,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
)

from executor.callee import callee_of
from executor.events import OutputRetryEvent, ToolEndEvent, ToolErrorEvent, ToolStartEvent

from ..trace.normalise import LAST_RETRY
from .framework_events import FrameworkRun, running_tool_call
from .pydantic_ai_messages import content_text, feedback_text

# Imported by pydantic_ai_agent.py only after it has imported pydantic_ai (or said which extra to install).


def _failure(part: Any) -> str:
    """What went wrong in a tool call pydantic-ai answered with an error: its ModelRetry, or an exception."""
    return "ToolFailed" if getattr(part, "outcome", None) == "failed" else "ModelRetry"


class RunEvents:
    """Turns what the run does into loopscope's tool and retry events: the nodes Agent.iter hands over (retry
    prompts, each tool call's result as the model gets it) and, through ToolCalls, each tool's execution."""

    def __init__(self, run: FrameworkRun, tools: dict[str, Callable[..., Any]]) -> None:
        self.run, self.tools = run, tools
        self.names: dict[str, str] = {}  # tool call id -> tool name
        self.started: set[str] = set()  # the calls whose tool_start is made
        self.said: set[str] = set()  # the calls whose end (tool_end or tool_error) is made
        self.retries = 0
        self.rounds = asyncio.Lock()  # the run's lock on its model calls; bound to its event loop at first use

    def request(self, request: ModelRequest) -> None:
        for part in request.parts:  # the output was unusable: why goes back to the model, which is asked again
            if isinstance(part, RetryFeedbackPart):
                self.retries += 1
                attempt = part.retry.attempt or self.retries
                self.run.emit(OutputRetryEvent, "ModelRequestNode", message=feedback_text(part), attempt=attempt)
            elif isinstance(part, RetryPromptPart) and part.tool_name not in self.tools:  # before RetryFeedbackPart
                self.retries += 1
                call_id = part.tool_call_id if part.tool_name else None
                self.run.emit(
                    OutputRetryEvent,
                    "ModelRequestNode",
                    message=part.model_response(),
                    attempt=self.retries,
                    tool_call_id=call_id,
                )
            elif isinstance(part, ToolReturnPart) and part.tool_name not in self.tools and part.outcome == "retried":
                # An output tool's arguments that failed the output type, or an output validator's ModelRetry: pydantic-ai
                # 2.x sends why back as that output tool call's result, marked retried (not as a RetryPromptPart).
                self.retries += 1
                message = part.model_response_str()
                self.run.emit(
                    OutputRetryEvent,
                    "ModelRequestNode",
                    message=message,
                    attempt=self.retries,
                    tool_call_id=part.tool_call_id,
                )

    def event(self, event: Any) -> None:
        if isinstance(event, FunctionToolCallEvent):
            self.names[event.part.tool_call_id] = event.part.tool_name
        elif isinstance(event, FunctionToolResultEvent) and event.part.tool_call_id not in self.said:
            self._returned(event.part)

    def start(self, call: ToolCallPart, function: str = "CallToolsNode") -> None:
        """tool_start, once per call: as the tool is executed, or (arguments that did not validate, so it never
        is) as its result arrives."""
        if call.tool_call_id in self.started:
            return
        self.started.add(call.tool_call_id)
        self.names[call.tool_call_id] = call.tool_name
        self.run.emit(
            ToolStartEvent,
            function,
            tool=call.tool_name,
            tool_input=call.args_as_json_str(),
            callee=self._callee(call.tool_name),
            tool_call_id=call.tool_call_id,
        )

    def returned(self, call: ToolCallPart, result: Any) -> None:
        """tool_end as the tool returned, in its execution's frames; the text is the one the model gets."""
        content = result.return_value if isinstance(result, ToolReturn) else result
        text = ToolReturnPart(call.tool_name, content, tool_call_id=call.tool_call_id).model_response_str()
        self.said.add(call.tool_call_id)
        self.run.emit(
            ToolEndEvent,
            "execute_tool",
            tool=call.tool_name,
            observation=text,
            callee=self._callee(call.tool_name),
            tool_call_id=call.tool_call_id,
        )

    def raised(self, call: ToolCallPart, error: Exception) -> None:
        """A tool raised something other than ModelRetry, or raised ModelRetry once more than its `retries`:
        pydantic-ai lets it out, and the run ends with it."""
        self.said.add(call.tool_call_id)
        message = str(error)
        if isinstance(error.__cause__, ModelRetry):  # retries exhausted: the tool's own last words are the cause
            message += f"{LAST_RETRY}{error.__cause__.message})"
        self.run.emit(
            ToolErrorEvent,
            "execute_tool",
            tool=call.tool_name,
            error_type=type(error).__name__,
            message=message,
            handled=False,
            callee=self._callee(call.tool_name),
            tool_call_id=call.tool_call_id,
        )

    def retried(self, part: Any) -> None:
        """The tool raised ModelRetry: its tool_error, in the execution's frames (else as the result arrives)."""
        if getattr(part, "tool_call_id", None):
            self._returned(part, "execute_tool")

    def _returned(self, part: Any, function: str = "CallToolsNode") -> None:  # a ToolReturnPart, or a RetryPromptPart
        self.said.add(part.tool_call_id)
        name = self.names.get(part.tool_call_id, getattr(part, "tool_name", "") or "")
        if part.tool_call_id not in self.started:  # its arguments did not validate: the tool never ran
            self.start(ToolCallPart(name, None, tool_call_id=part.tool_call_id))
        if isinstance(part, RetryPromptPart) or getattr(part, "outcome", "success") in ("failed", "retried"):
            # the tool raised ModelRetry (or ToolFailed), or its arguments did not validate
            said = part.model_response() if isinstance(part, RetryPromptPart) else part.model_response_str()
            self.run.emit(
                ToolErrorEvent,
                function,
                tool=name,
                error_type=_failure(part),
                message=content_text(part.content),
                handled=True,
                observation=said,
                callee=self._callee(name),
                tool_call_id=part.tool_call_id,
            )
        else:
            self.run.emit(
                ToolEndEvent,
                function,
                tool=name,
                observation=part.model_response_str(),
                callee=self._callee(name),
                tool_call_id=part.tool_call_id,
            )

    def _callee(self, name: str) -> Any:
        function = self.tools.get(name)
        return callee_of(function) if function is not None else None


class ToolCalls(AbstractCapability[Any]):
    """A capability of the recorded run (pydantic-ai's public hook around each tool's execution): tool_start
    and tool_end made inside the execution, so a debugger's frames are pydantic-ai's tool call with its real
    locals; a tool's exception (not ModelRetry, which the model is told) seen with its type before it ends the
    run; and the calls with ids in `given` answered with that text without running the tool (a fork)."""

    def __init__(self, loop: RunEvents, given: dict[str, str] | None = None) -> None:
        self.loop, self.given = loop, given or {}

    async def wrap_tool_execute(
        self, ctx: Any, *, call: ToolCallPart, tool_def: Any, args: Any, handler: Callable[[Any], Awaitable[Any]]
    ) -> Any:
        # Each event waits for a model call in flight (an agent another tool delegates to) to end, as in a re-run
        # answered from the recording at once: the recorded order is then the re-run's.
        async with self.loop.rounds:
            self.loop.start(call, "execute_tool")
        given = self.given.get(call.tool_call_id)
        try:
            if given is not None:
                result = given
            else:
                with running_tool_call(call.tool_call_id):
                    result = await handler(args)
        except ToolRetryError as retry:  # ModelRetry: its text goes back to the model as the call's result
            async with self.loop.rounds:
                self.loop.retried(retry.tool_retry)
            raise
        except Exception as error:
            async with self.loop.rounds:
                self.loop.raised(call, error)
            raise
        async with self.loop.rounds:
            self.loop.returned(call, result)
        return result
