"""The AgentExecutor: LangChain's classic ReAct loop, as generators."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, TypeGuard

from pydantic import BaseModel

from .agents.parser import OutputParserException
from .agents.react import ReActAgent
from .agents.structured_output import structured_finish
from .agents.tool_calling import ToolCallingAgent
from .async_driver import AsyncEventStream
from .clock import Clock
from .events import (
    ActionRecord,
    AgentActionEvent,
    AgentFinishEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    FinishCheckEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    ParseErrorEvent,
    StepEvent,
    ToolInfo,
)
from .events.builder import build_record
from .listeners import check_listeners
from .loop_hooks import new_run
from .recovery.degradation import RuleSet, with_rules
from .recovery.rate_limit import RateLimiter
from .recovery.retry import RetryPolicy
from .run_context import Listener, RunContext
from .run_settings import DEFAULT_RETRY, retry_policy_for, run_settings
from .schema import AgentAction, AgentFinish, AgentStep, ToolAgentAction
from .tools.adapters import as_tools
from .tools.parallel import perform_tool_calls
from .tools.tool import Tool, invalid_tool_observation

Events = Generator[EventBase, None, Any]
Inputs = dict[str, Any]
Steps = list[AgentStep]
ToolMap = dict[str, Tool]
HandlerFunction = Callable[[OutputParserException], str]
ParsingErrorHandler = bool | str | HandlerFunction
STOPPED = "Agent stopped due to iteration limit or time limit."


class OutputParsingError(ValueError):
    """The reply did not parse and handle_parsing_errors was off."""


class AgentExecutor:
    """Runs an agent in a loop until it finishes or hits a limit.

    `invoke` returns the result dict; `iter_events` is the same run
    as a generator that hands out one event per `next()` and returns
    the result dict when it stops. `ainvoke` / `aiter_events` drive
    that same generator from asyncio (async tools and models are
    awaited under all four).
    """

    def __init__(
        self,
        agent: ReActAgent | ToolCallingAgent,
        tools: Sequence[Any],
        max_iterations: int | None = 15,
        max_execution_time: float | None = None,
        early_stopping_method: str = "force",
        handle_parsing_errors: ParsingErrorHandler = False,
        return_intermediate_steps: bool = False,
        trim_intermediate_steps: int | Callable[[list], list] = -1,
        clock: Clock | None = None,
        run_id_factory: Callable[[], str] | None = None,
        retry_policy: RetryPolicy | str | None = DEFAULT_RETRY,
        rate_limiter: RateLimiter | None = None,
        rules: RuleSet | None = None,
        degrade_after: int = 3,
        response_format: type[BaseModel] | None = None,
        max_concurrency: int | None = None,
    ) -> None:
        _check_early_stopping(early_stopping_method)
        self.tools = _unique_names(as_tools(tools))
        # With rules, refusals become answers, and the rules plan
        # after `degrade_after` failures in a row.
        self.agent = with_rules(agent, rules, degrade_after)
        self.rules, self.degrade_after = rules, degrade_after
        self.max_iterations = max_iterations
        self.max_execution_time = max_execution_time
        self.early_stopping_method = early_stopping_method
        self.handle_parsing_errors = handle_parsing_errors
        self.return_intermediate_steps = return_intermediate_steps
        self.trim_intermediate_steps = trim_intermediate_steps
        self.clock = clock
        self.run_id_factory = run_id_factory
        # Model calls, and tools without a retry policy of their own.
        self.retry_policy = retry_policy_for(retry_policy, agent)
        self.rate_limiter = rate_limiter  # paces nested calls too
        # A pydantic model that the final answer must validate into.
        self.response_format = response_format
        # Threads for one reply's tool calls (None: one per call).
        self.max_concurrency = max_concurrency

    # -- public entry points ------------------------------------------
    def invoke(
        self, inputs: Inputs, listeners: Iterable[Listener] = ()
    ) -> dict[str, Any]:
        """Run to the end, feeding every event to `listeners`."""
        listeners = check_listeners(listeners)
        events = self.iter_events(inputs)
        while True:
            try:
                event = next(events)
            except StopIteration as stop:
                return stop.value
            for listener in listeners:
                listener(event)

    async def ainvoke(
        self, inputs: Inputs, listeners: Iterable[Listener] = ()
    ) -> dict[str, Any]:
        """`invoke` under asyncio (LangChain: ainvoke).

        Async tools and models are awaited on the caller's loop; sync
        ones run in a worker thread so that they do not block it.
        """
        listeners = check_listeners(listeners)
        stream = self.aiter_events(inputs)
        async for event in stream:
            for listener in listeners:
                listener(event)
        return stream.result

    def aiter_events(self, inputs: Inputs) -> AsyncEventStream:
        """`async for event in executor.aiter_events(inputs)`."""
        run = new_run(self, awaits_in_driver=True)
        return AsyncEventStream(self.iter_events(inputs, run))

    def iter_events(
        self, inputs: Inputs, run: RunContext | None = None
    ) -> Events:
        # LangChain: Chain.invoke. The executor is a chain, and
        # _call is its body.
        if "input" not in inputs:
            message = "Missing some input keys: {'input'}"
            raise ValueError(f"{message} (got {sorted(inputs)})")
        run = run or new_run(self)
        yield run.emit(ChainStartEvent,
            inputs=inputs, tools=self._tool_infos(),
            settings=run_settings(self, run.clock))
        try:
            outputs = yield from self._call(inputs, run)
        except Exception as error:
            yield run.emit(ChainErrorEvent,
                error_type=type(error).__name__, message=str(error))
            raise
        yield run.emit(ChainEndEvent, outputs=outputs)
        return {**inputs, **outputs}

    # -- the loop -----------------------------------------------------
    def _call(self, inputs: Inputs, run: RunContext) -> Events:
        # LangChain: AgentExecutor._call
        name_to_tool_map = {tool.name: tool for tool in self.tools}
        intermediate_steps: Steps = []
        iterations = 0
        time_elapsed = 0.0
        start_time = run.clock.monotonic()
        while self._should_continue(iterations, time_elapsed):
            run.start_round(iterations + 1)
            output = yield from self._take_next_step(
                name_to_tool_map, inputs, intermediate_steps, run)
            is_finish = isinstance(output, AgentFinish)
            yield run.emit(FinishCheckEvent,
                is_finish=is_finish, output_type=_type_name(output))
            if is_finish:
                return self._return(output, intermediate_steps)
            intermediate_steps.extend(output)
            if len(output) == 1:
                tool_return = self._get_tool_return(
                    output[0], name_to_tool_map)
                if tool_return is not None:
                    yield run.emit(AgentFinishEvent,
                        return_values=tool_return.return_values, log="")
                    return self._return(tool_return, intermediate_steps)
            iterations += 1
            time_elapsed = run.clock.monotonic() - start_time
        yield run.emit(LimitReachedEvent,
            **self._limit_fields(iterations, time_elapsed))
        # LangChain: return_stopped_response("force")
        output = AgentFinish({"output": STOPPED}, "")
        yield run.emit(AgentFinishEvent,
            return_values=output.return_values, log=output.log)
        return self._return(output, intermediate_steps)

    def _take_next_step(
        self, name_to_tool_map: ToolMap, inputs: Inputs,
        intermediate_steps: Steps, run: RunContext,
    ) -> Events:
        # LangChain: _take_next_step gathers what _iter_next_step
        # produces into one result.
        output = yield from self._iter_next_step(
            name_to_tool_map, inputs, intermediate_steps, run)
        if isinstance(output, AgentFinish):
            return output
        for done, step in enumerate(output, start=1):
            yield run.emit(StepEvent,
                action=_action_record(step.action),
                observation=str(step.observation),
                n_steps=len(intermediate_steps) + done,
                tool_call_id=_call_id(step.action))
        return output

    def _iter_next_step(
        self, name_to_tool_map: ToolMap, inputs: Inputs,
        intermediate_steps: Steps, run: RunContext,
    ) -> Events:
        # LangChain: _iter_next_step. Plan, then act on the plan.
        steps = self._prepare_intermediate_steps(intermediate_steps)
        try:
            output = yield from self.agent.plan(steps, run, **inputs)
            if isinstance(output, AgentFinish) and self.response_format:
                output = structured_finish(output, self.response_format)
        except OutputParserException as error:
            observation, log = self._parsing_error_observation(error)
            yield run.emit(ParseErrorEvent,
                error=str(error), llm_output=error.llm_output,
                observation=observation,
                handled=observation is not None)
            if observation is None:
                raise _unhandled(error) from error
            output = AgentAction("_Exception", observation, log)
            return [AgentStep(output, observation)]
        if isinstance(output, AgentFinish):
            yield run.emit(AgentFinishEvent,
                return_values=output.return_values, log=output.log)
            return output
        # LangChain: the multi-action path, a list of actions.
        actions = _as_actions(output)
        for action in actions:
            yield run.emit(AgentActionEvent,
                tool=action.tool, tool_input=action.tool_input,
                log=action.log, tool_call_id=_call_id(action))
        if _all_tool_calls(actions):  # one reply's calls, all at once
            return (yield from perform_tool_calls(
                name_to_tool_map, actions, run, self.max_concurrency))
        new_steps = []
        for action in actions:
            new_steps.append((yield from self._perform_agent_action(
                name_to_tool_map, action, run)))
        return new_steps

    def _perform_agent_action(
        self, name_to_tool_map: ToolMap, agent_action: AgentAction,
        run: RunContext,
    ) -> Events:
        # LangChain: _perform_agent_action. Look the tool up by its
        # exact name: run it, or say that it is not there.
        if agent_action.tool in name_to_tool_map:
            tool = name_to_tool_map[agent_action.tool]
            observation = yield from tool.run(
                agent_action.tool_input, run)
        else:
            available = list(name_to_tool_map)
            observation = invalid_tool_observation(
                agent_action.tool, available)
            yield run.emit(InvalidToolEvent,
                requested=agent_action.tool,
                available=available, observation=observation)
        return AgentStep(agent_action, observation)

    # -- helpers that do not emit -------------------------------------
    def _should_continue(
        self, iterations: int, time_elapsed: float
    ) -> bool:
        limit = self.max_iterations
        if limit is not None and iterations >= limit:
            return False
        time_limit = self.max_execution_time
        return time_limit is None or time_elapsed < time_limit

    def _get_tool_return(
        self, step: AgentStep, name_to_tool_map: ToolMap
    ) -> AgentFinish | None:
        # A return_direct tool's observation is the final answer.
        tool = name_to_tool_map.get(step.action.tool)
        if tool is not None and tool.return_direct:
            key = self.agent.return_values[0]
            return AgentFinish({key: step.observation}, "")
        return None

    def _return(
        self, output: AgentFinish, intermediate_steps: Steps
    ) -> dict[str, Any]:
        final_output = dict(output.return_values)
        if self.return_intermediate_steps:
            steps = [tuple(step) for step in intermediate_steps]
            final_output["intermediate_steps"] = steps
        return final_output

    def _prepare_intermediate_steps(
        self, intermediate_steps: Steps
    ) -> Steps:
        trim = self.trim_intermediate_steps
        if isinstance(trim, int) and trim > 0:
            return intermediate_steps[-trim:]
        if callable(trim):
            return trim(intermediate_steps)
        return intermediate_steps

    def _parsing_error_observation(
        self, error: OutputParserException
    ) -> tuple[str | None, str]:
        """What the agent is told of a reply that did not parse, and
        the log its step keeps (None: raise instead)."""
        handler = self.handle_parsing_errors
        if isinstance(handler, bool):
            if not handler:
                return None, str(error)
            if error.send_to_llm:
                return str(error.observation), error.llm_output
            return "Invalid or incomplete response", str(error)
        if isinstance(handler, str):
            return handler, str(error)
        return str(handler(error)), str(error)

    def _limit_fields(
        self, iterations: int, time_elapsed: float
    ) -> dict[str, Any]:
        limit = self.max_iterations
        hit = limit is not None and iterations >= limit
        return {
            "reason": "max_iterations" if hit else "max_execution_time",
            "iterations": iterations,
            "elapsed": round(time_elapsed, 6),
            "early_stopping_method": self.early_stopping_method,
        }

    def _tool_infos(self) -> list[ToolInfo]:
        return [
            ToolInfo(
                name=tool.name, description=tool.description,
                return_direct=tool.return_direct)
            for tool in self.tools
        ]

    def with_overrides(self, **changes: Any) -> AgentExecutor:
        """A new executor like this one with some constructor
        arguments changed (e.g. tools, clock).

        LangChain: Runnable.with_config. Replays use it to swap in
        recorded answers without reaching into a built executor. Every
        constructor argument is kept as the attribute of the same
        name, which is what makes the copy exact.
        """
        signature = inspect.signature(AgentExecutor.__init__)
        names = list(signature.parameters)[1:]
        unknown = sorted(set(changes) - set(names))
        if unknown:
            raise TypeError(
                "with_overrides: AgentExecutor has no argument "
                f"{', '.join(unknown)}; choose from {', '.join(names)}")
        kept = {name: getattr(self, name) for name in names}
        return type(self)(**{**kept, **changes})


def _unhandled(error: OutputParserException) -> OutputParsingError:
    # LangChain's own words, so that a search for them finds both.
    return OutputParsingError(
        "An output parsing error occurred. In order to pass this error "
        "back to the agent and have it try again, pass "
        "`handle_parsing_errors=True` to the AgentExecutor. "
        f"This is the error: {error}")


def _check_early_stopping(method: str) -> None:
    if method != "force":
        raise ValueError(
            f"early_stopping_method {method!r} is not supported; use "
            "'force' (the ReAct agent has no 'generate' step)")


def _unique_names(tools: list[Tool]) -> list[Tool]:
    # LangChain matches a tool by its exact name: two would clash.
    names = [tool.name for tool in tools]
    if len(set(names)) != len(names):
        raise ValueError(f"Tool names must be unique, got {names}")
    return tools


def _as_actions(output: Any) -> list[AgentAction]:
    # One action, or a tool-calling reply's list of them.
    return [output] if isinstance(output, AgentAction) else output


def _type_name(output: Any) -> str:
    if isinstance(output, AgentFinish):
        return type(output).__name__
    return "list[AgentStep]"


def _all_tool_calls(
    actions: list[AgentAction],
) -> TypeGuard[list[ToolAgentAction]]:
    return all(isinstance(a, ToolAgentAction) for a in actions)


def _call_id(action: AgentAction) -> str | None:
    if isinstance(action, ToolAgentAction):
        return action.tool_call_id
    return None


def _action_record(action: AgentAction) -> ActionRecord:
    return build_record(
        ActionRecord, tool=action.tool,
        tool_input=str(action.tool_input), log=action.log)
