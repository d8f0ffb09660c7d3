"""A pydantic-ai `Agent` run through loopscope's framework adapter shape: recorded with `Agent.iter`, re-run offline.

Recording drives the run with `Agent.iter` rather than reading pydantic-ai's instrumentation: iter hands over each
node of the loop as it happens (a model request with its retry prompts, the tool calls and results by call id)
in-process, with no OpenTelemetry SDK to install and no spans to map back into rounds. Each model call is seen by
a model of loopscope's wrapped around the agent's own (`agent.override(model=...)`, pydantic-ai's testing hook),
which is also where a re-run is answered from the recording (through a `FunctionModel`), so nothing is sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from executor.events import EventBase
from executor.models.messages import render_messages

from ..agents.frameworks import Answerer

try:
    from pydantic_ai import Agent
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models import Model, ModelRequestParameters, infer_model
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.models.wrapper import WrapperModel
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_ai.usage import UsageLimits
except ImportError as missing:  # the [pydantic-ai] extra
    raise ImportError(
        f"a pydantic-ai agent needs the pydantic-ai extra ({missing.name} is not installed): "
        "pip install 'loopscope[pydantic-ai]'",
        name=missing.name,
    ) from None

from ..i18n import Message, Said
from .async_run import run_to_end
from .framework_events import FrameworkRun, final_output
from .named_agents import named_by
from .pydantic_ai_events import RunEvents, ToolCalls
from .pydantic_ai_messages import as_response, chat_messages, offered_tools, reply_of
from .run_context import made_bare

SOURCE = "pydantic-ai"

# Public pydantic-ai API only: Agent.iter, Agent.override(model=...), Agent.toolsets, a capability's
# wrap_tool_execute, WrapperModel and FunctionModel. (Until issue 36 the fork's given observations patched the
# agent's private _function_toolset; the capability replaced it.)


class LoopscopeModel(WrapperModel):
    """Wraps the agent's model: records each request (messages as the model is handed them, tools offered) and
    its reply, which `answer` gives instead of the model when set. The agent's own model stays the wrapped one
    even then: its profile decides how pydantic-ai phrases what it sends (retry feedback, frames), so a re-run
    sends the same messages as the recording. `rounds` (the run's, shared with an agent its tools delegate to)
    makes one call at a time, each llm_start followed by its own llm_end, in the order a re-run answers them."""

    def __init__(
        self, wrapped: Model, run: FrameworkRun, name: str, answer: Answerer | None, rounds: asyncio.Lock
    ) -> None:
        super().__init__(wrapped)
        self.run, self.name, self.answer, self.rounds = run, name, answer, rounds

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: Any,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        async with self.rounds:
            sent = chat_messages(messages)
            self.run.model_call(self.name, sent, offered_tools(model_request_parameters))
            if self.answer is not None:
                response = as_response(self.answer(render_messages(sent)), self.name)
            else:
                response = await self.wrapped.request(messages, model_settings, model_request_parameters)
            text, calls = reply_of(response)
            usage = response.usage
            tokens = {"prompt_tokens": usage.input_tokens, "completion_tokens": usage.output_tokens}
            self.run.model_reply(text, calls, tokens if any(tokens.values()) else None)
        return response


def own_model(agent: Any, answer: Answerer | None) -> Model:
    """The agent's own model; when it cannot even be made offline (a "provider:name" string whose provider
    wants a key), a FunctionModel stands in while the recording answers."""
    try:
        return infer_model(agent.model)
    except Exception:
        if answer is None:
            raise

        def unused(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            raise AssertionError("answered by loopscope's model before it gets here")

        return FunctionModel(unused, model_name=_model_name(agent.model))


def _model_name(model: Any) -> str:
    if isinstance(model, str):
        return model.partition(":")[2] or model
    return str(getattr(model, "model_name", None) or type(model).__name__)


class NoModel(Said, ValueError):
    """The agent has no model of its own to record it with."""


def _narrate_limit(run: FrameworkRun, error: BaseException, request_limit: int | None) -> None:
    """The request limit that ended the run, as its own event before chain_error (pydantic-ai's other
    usage limits are not set by loopscope: one a delegate's own run hit is told by chain_error alone)."""
    if isinstance(error, UsageLimitExceeded) and f"request_limit of {request_limit}" in str(error):
        run.limit_reached(f"raise UsageLimitExceeded (request_limit={request_limit})")


class PydanticAIAdapter:
    """The framework adapter for pydantic-ai's `Agent` (function tools, typed output with validation retries)."""

    name = "pydantic-ai"
    extra = "pydantic-ai"
    takes_max_turns = True  # record(max_turns=N): the app's UsageLimits(request_limit=N), one model request a turn
    limit_setting = "request_limit"  # where chain_start keeps it, under pydantic-ai's own name

    def record(
        self,
        agent: Any,
        question: str,
        path: Path,
        answer: Answerer | None = None,
        meta: dict[str, Any] | None = None,
        observations: dict[str, str] | None = None,
        listener: Callable[[EventBase], None] | None = None,
        clock: Callable[[], float] | None = None,
        max_turns: int | None = None,
    ) -> None:
        if agent.model is None and answer is None:  # said before the trace file, not as infer_model's TypeError
            raise NoModel(Message("cli.framework.no_model"))
        declared = agent.deps_type  # made before the trace file: a class that cannot be is said first
        # NoneType (pydantic-ai 1.x) or object (2.x, its default): the agent declares no deps, and runs without
        bare = isinstance(declared, type) and declared not in (type(None), object)
        deps = made_bare(declared, "deps", agent.name) if bare else None
        run = FrameworkRun(
            path,
            SOURCE,
            "Agent.iter",
            model_step="request",
            listener=listener,
            clock=clock or time.monotonic,
            **(meta or {}),
        )
        tools = self.tool_functions(agent)
        described = [{"name": n, "description": (f.__doc__ or "").strip()} for n, f in tools.items()]
        name = _model_name(agent.model)
        settings = {"framework": self.name, "agent": agent.name, "model": name}
        settings |= {"deps": f"{declared.__name__}()"} if bare else {}
        # Only a limit that was given is kept: a trace of the default reads as before, and re-runs with it.
        limits = UsageLimits(request_limit=max_turns) if max_turns else UsageLimits()
        run.start(question, described, settings | ({self.limit_setting: max_turns} if max_turns else {}))
        loop = RunEvents(run, tools)
        try:
            with ExitStack() as overrides:
                for each in [agent, *self.delegates(agent)]:
                    named = name if each is agent else _model_name(each.model)
                    model = LoopscopeModel(own_model(each, answer), run, named, answer, loop.rounds)
                    overrides.enter_context(each.override(model=model))
                result = run_to_end(self._drive(agent, question, deps, limits, loop, ToolCalls(loop, observations)))
        except Exception as error:  # recorded, then raised: the caller says it in one line
            _narrate_limit(run, error, limits.request_limit)
            run.fail(error)
            run.close()
            raise
        except BaseException as stopped:  # Ctrl-C, or a debugger closing the run: see FrameworkRun.stopped
            raise run.stopped(stopped) from None
        messages = chat_messages(result.all_messages())
        run.end({"messages": messages, "output": final_output(result.output)})
        run.close()

    async def _drive(
        self, agent: Any, question: str, deps: Any, limits: UsageLimits, loop: RunEvents, tools: ToolCalls
    ) -> Any:
        async with agent.iter(question, deps=deps, usage_limits=limits, capabilities=[tools]) as agent_run:
            async for node in agent_run:
                if Agent.is_model_request_node(node):
                    loop.request(node.request)
                elif Agent.is_call_tools_node(node):
                    async with node.stream(agent_run.ctx) as events:
                        async for event in events:
                            loop.event(event)
        return agent_run.result

    def delegates(self, agent: Any) -> list[Any]:
        """The agents `agent`'s tools run (pydantic-ai's agent delegation, `await other.run(..., usage=ctx.usage)`
        in a tool), and theirs in turn: their model calls are rounds of this run, answered offline like its own.
        Their tools run inside the delegating tool's call and are not events of their own."""
        found: list[Any] = []
        waiting = [agent]
        while waiting:
            current = waiting.pop()
            for function in self.tool_functions(current).values():
                for each in named_by(function, Agent):
                    if each is not agent and not any(each is seen for seen in found):
                        found.append(each)
                        waiting.append(each)
        return found

    def tool_functions(self, agent: Any) -> dict[str, Callable[..., Any]]:
        found: dict[str, Callable[..., Any]] = {}
        for toolset in agent.toolsets:  # the agent's own function tools (@agent.tool, tools=[...]) among them
            if isinstance(toolset, FunctionToolset):
                found.update({name: tool.function for name, tool in toolset.tools.items()})
        return found


ADAPTER = PydanticAIAdapter()
