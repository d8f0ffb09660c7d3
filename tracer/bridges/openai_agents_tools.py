"""An Agents SDK run's function tools recorded by call id (tool_start, tool_end or tool_error), and the agents it reaches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

from agents import Agent, FunctionTool, Handoff, ItemHelpers, ToolErrorFormatterArgs

from executor.callee import callee_of
from executor.events import ToolEndEvent, ToolErrorEvent, ToolStartEvent

from .framework_events import FrameworkRun, as_json_text, running_tool_call
from .named_agents import named_by

# This module is imported by openai_agents_agent.py only after it has imported `agents` (or said which extra to
# install); the private SDK fields it reaches are listed there, with why.


class ToolRecorder:
    """Stands in for each FunctionTool's invoker while loopscope records (`on_invoke_tool`, the tool's public
    field): tool_start, then tool_end, or tool_error when the tool raised, each made in the call's own task, so
    a debugger's frames are the SDK's tool call with its real locals. `given` answers the calls with those ids
    without running the tool (a fork's edited observation).

    A raising tool is caught inside the invoker and turned into text for the model. Under the SDK's default
    failure policy the SDK hands the exception to RunConfig.tool_error_formatter first; under a custom
    failure_error_function it hands it to that function, in front of which loopscope puts its own (`watched`).
    Either way the exception is kept (`failed`), so the tool_error has its type and message, and its observation
    is the text the model got. A tool with failure_error_function=None lets the exception out: a tool_error that
    ends the run.

    `rounds` is the run's lock on its model calls (LoopscopeModel holds it from llm_start to llm_end): each tool
    event waits for a call in flight to end, as a re-run answered from the recording (at once) would have it; an
    input guardrail's agent asks its model while the agent's tools run, and a tool_start between that call's
    llm_start and llm_end, where the network's timing put it, made verify of the unchanged agent diverge."""

    def __init__(self, run: FrameworkRun, given: dict[str, str] | None = None) -> None:
        self.run, self.given = run, given or {}
        self.rounds = asyncio.Lock()  # bound to the run's event loop at its first use, not here
        self.failed: dict[str, Exception] = {}  # call id -> what the tool raised (the SDK made text of it)

    def formatter(self, args: ToolErrorFormatterArgs[Any]) -> None:
        """RunConfig.tool_error_formatter: keeps the exception; None keeps the SDK's own message for the model."""
        if args.kind == "tool_exception" and args.error is not None:
            self.failed[args.call_id] = args.error

    def watched(self, failure: Callable[[Any, Exception], Any]) -> Callable[[Any, Exception], Any]:
        """A custom failure_error_function behind one that keeps the exception first; what the user's function
        returns (text, or an awaitable of it, which the SDK awaits) goes to the model unchanged."""

        def keep_then_ask(context: Any, error: Exception) -> Any:
            self.failed[getattr(context, "tool_call_id", None) or ""] = error
            return failure(context, error)

        return keep_then_ask

    @contextmanager
    def installed(self, agent: Any) -> Iterator[None]:
        """Every function tool of the agent and of those it hands off to, recorded inside the block."""
        swapped = []
        for each in agents_of(agent):
            for tool in each.tools:
                if isinstance(tool, FunctionTool):
                    failure = getattr(tool, "_failure_error_function", None)  # None: the default, or none at all
                    swapped.append((tool, tool.on_invoke_tool, failure))
                    tool.on_invoke_tool = self._invoker(tool, tool.on_invoke_tool, callee_of(function_of(tool)))
                    if failure is not None:
                        tool._failure_error_function = self.watched(failure)
        try:
            yield
        finally:
            for tool, real, failure in swapped:
                tool.on_invoke_tool = real
                if failure is not None:
                    tool._failure_error_function = failure

    def _invoker(self, tool: Any, real: Any, callee: Any) -> Callable[[Any, str], Coroutine[Any, Any, Any]]:
        async def invoke(context: Any, arguments: str) -> Any:
            call_id = getattr(context, "tool_call_id", None)
            said = {"tool": tool.name, "callee": callee, "tool_call_id": call_id}
            async with self.rounds:
                self.run.emit(ToolStartEvent, "on_invoke_tool", tool_input=arguments, **said)
            given = self.given.get(call_id or "")
            try:
                if given is not None:
                    result = given
                else:
                    with running_tool_call(call_id):
                        result = await real(context, arguments)
            except Exception as error:  # the tool's failure policy let it out: the run ends with it
                self.failed.pop(call_id or "", None)  # a failure function that itself raised: its error is the one
                async with self.rounds:
                    self.run.emit(ToolErrorEvent, "on_invoke_tool", **_raised(error), handled=False, **said)
                raise
            failed = self.failed.pop(call_id or "", None)
            async with self.rounds:
                if failed is not None:
                    observation = as_json_text(result)
                    self.run.emit(
                        ToolErrorEvent,
                        "on_invoke_tool",
                        **_raised(failed),
                        handled=True,
                        observation=observation,
                        **said,
                    )
                else:
                    observation = sent_to_model(tool, getattr(context, "tool_call", None), result)
                    self.run.emit(ToolEndEvent, "on_invoke_tool", observation=observation, **said)
            return result

        return invoke


def sent_to_model(tool: Any, call: Any, result: Any) -> str:
    """A tool's result as the text the model is sent for it: the SDK's own conversion (ItemHelpers), which makes
    a value that is not text its str() (a list comes out as Python's repr, not JSON) unless the tool declares an
    output schema. Structured output (images, files) is kept as its JSON."""
    if call is None:  # a tool invoked outside a model's call (by hand): no conversion to follow
        return as_json_text(result)
    try:
        item = ItemHelpers.tool_call_output_item(
            call,
            result,
            output_json_schema=tool.output_json_schema,
            output_type_adapter=getattr(tool, "_output_type_adapter", None),
        )
    except Exception:  # the SDK refuses this output (it says so itself, as the run goes on): keep what was returned
        return as_json_text(result)
    output = item["output"]
    return output if isinstance(output, str) else as_json_text(output)


def _raised(error: BaseException) -> dict[str, str]:
    return {"error_type": type(error).__name__, "message": str(error)}


def function_of(tool: Any) -> Any:
    """The user's function behind a @function_tool (the SDK's public accessor for it is __wrapped__)."""
    try:
        return tool.__wrapped__
    except AttributeError:  # a FunctionTool built by hand: its invoker is the nearest thing to the user's code
        return tool.on_invoke_tool


def agents_of(agent: Any) -> list[Any]:
    """The agent and every agent it can reach, once each: those it hands off to (directly, or through a handoff()
    object), those it calls as a tool (Agent.as_tool), those its own code runs (named by a guardrail's, a function
    tool's or its instructions' function), and theirs in turn."""
    found: list[Any] = []
    waiting = [agent]
    while waiting:
        current = waiting.pop()
        if not isinstance(current, Agent) or any(current is seen for seen in found):
            continue
        found.append(current)
        for handoff in current.handoffs:
            ref = getattr(handoff, "_agent_ref", None) if isinstance(handoff, Handoff) else None
            waiting.append(ref() if ref is not None else handoff)
        # An agent tool's run is a Runner.run of its agent inside the tool call: that agent's model and tools too.
        waiting += [getattr(tool, "_agent_instance", None) for tool in current.tools if isinstance(tool, FunctionTool)]
        waiting += [each for function in _own_functions(current) for each in named_by(function, Agent)]
    return found


def _own_functions(agent: Any) -> list[Any]:
    guardrails = [*agent.input_guardrails, *agent.output_guardrails]
    functions = [g.guardrail_function for g in guardrails] + [agent.instructions]
    return functions + [function_of(t) for t in agent.tools if isinstance(t, FunctionTool)]
