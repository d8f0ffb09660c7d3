"""An OpenAI Agents SDK `Agent` run through loopscope's framework adapter shape: recorded in-process, re-run offline.

Recording uses the SDK's run hooks (tools by call id, handoffs) and a `Model` of loopscope's in front of each
agent's own model (each call's messages, tools offered and reply), rather than a tracing processor: a processor
sees spans after the fact and, for a Responses model, without the messages sent, while the `Model` interface is
also where a re-run is answered from the recording, so both go through one place. The SDK's own tracing is off
while loopscope records (RunConfig.tracing_disabled: nothing is exported to OpenAI), and the header says so.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from executor.events import (
    EventBase,
    GuardrailEvent,
    HandoffEvent,
    ToolCallRecord,
)
from executor.models.messages import render_messages

from ..agents.frameworks import Answerer, RecordedReply
from .async_run import run_to_end

try:
    from agents import FunctionTool, RunConfig, RunContextWrapper, RunHooks, Runner
    from agents.exceptions import (
        InputGuardrailTripwireTriggered,
        MaxTurnsExceeded,
        OutputGuardrailTripwireTriggered,
    )
    from agents.items import ModelResponse
    from agents.models.chatcmpl_converter import Converter
    from agents.models.interface import Model
    from agents.models.multi_provider import MultiProvider
    from agents.usage import Usage
    from openai.types.responses import (
        Response,
        ResponseCompletedEvent,
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )
except ImportError as missing:  # the [openai-agents] extra
    raise ImportError(
        f"an OpenAI Agents SDK agent needs the openai-agents extra ({missing.name} is not installed): "
        "pip install 'loopscope[openai-agents]'",
        name=missing.name,
    ) from None

from .framework_events import FrameworkRun, final_output, plain
from .openai_agents_tools import ToolRecorder, agents_of, function_of
from .run_context import declared_context, made_bare

SOURCE = "openai-agents"

# What of the SDK this module reaches that its reference does not document, and why (everything else is public:
# Agent.model and FunctionTool.on_invoke_tool as fields the SDK reads at run time, RunHooks, Model, RunConfig's
# tracing_disabled and tool_error_formatter, FunctionTool.__wrapped__):
# (agents_of and ToolRecorder are in openai_agents_tools.py.)
# - Handoff._agent_ref (agents_of): the only way from a handoff() object to the agent it hands to (its public
#   agent_name only names it), needed to stand loopscope's model in front of that agent's model too;
# - FunctionTool._agent_instance (agents_of): the agent behind an Agent.as_tool() tool (its public tool origin only
#   names it), whose model and tools are recorded and answered like the calling agent's;
# - agents.models.chatcmpl_converter.Converter (chat_messages, offered_tools): not re-exported by `agents`, but the
#   SDK's own conversion, so a call's messages are exactly what its chat-completions model sends.
# - FunctionTool._failure_error_function (ToolRecorder.installed): where @function_tool keeps a custom
#   failure_error_function, which the SDK calls (instead of tool_error_formatter) with the exception the tool raised;
#   loopscope stands in front of it, while it records, to learn that exception without asking the user's function.
# - FunctionTool._output_type_adapter (sent_to_model): the tool's declared output type, with which the SDK turns
#   its result into the text the model is sent; the tool_end says that text, so it needs the same conversion.
VENDOR_EXPORT = "off while loopscope records (RunConfig.tracing_disabled): no span was sent to OpenAI"


def chat_messages(system: str | None, items: Any) -> list[dict[str, Any]]:
    """The SDK's input items as the OpenAI chat messages a chat-completions model sends (the SDK's own converter)."""
    messages = [dict(m) for m in Converter.items_to_messages(items)]
    return ([{"role": "system", "content": system}] if system else []) + messages


def offered_tools(tools: list[Any], handoffs: list[Any]) -> list[dict[str, Any]]:
    specs = [dict(Converter.tool_to_openai(t)) for t in tools if isinstance(t, FunctionTool)]
    return specs + [dict(Converter.convert_handoff_tool(h)) for h in handoffs]


def reply_of(response: ModelResponse) -> tuple[str, list[ToolCallRecord]]:
    """The text and the tool calls (with their call ids) of a model response."""
    texts, calls = [], []
    for item in response.output:
        if isinstance(item, ResponseOutputMessage):
            texts += [part.text for part in item.content if isinstance(part, ResponseOutputText)]
        elif isinstance(item, ResponseFunctionToolCall):
            calls.append(ToolCallRecord(id=item.call_id, name=item.name, arguments=item.arguments))
    return "".join(texts), calls


def as_response(reply: RecordedReply) -> ModelResponse:
    """A recorded reply as the ModelResponse the SDK's own model would have returned."""
    output: list[Any] = []
    if reply.text or not reply.tool_calls:
        text = ResponseOutputText(text=reply.text, type="output_text", annotations=[])
        output.append(
            ResponseOutputMessage(id="recorded", content=[text], role="assistant", status="completed", type="message")
        )
    for call in reply.tool_calls:
        output.append(
            ResponseFunctionToolCall(
                id=call.id, call_id=call.id, name=call.name, arguments=call.arguments, type="function_call"
            )
        )
    return ModelResponse(output=output, usage=Usage(), response_id=None)


class LoopscopeModel(Model):
    """Stands in front of one agent's model: records each call, and passes it on to that model or (given
    `answer`) answers it from the recording, sending nothing. `rounds` is the run's, shared by every agent's
    LoopscopeModel: one call at a time, so each round's llm_start is followed by its own llm_end and the replies
    are recorded in the order the calls were made (an input guardrail's agent asks its model while the agent's
    first turn does; interleaved, the re-run's answers in order would go to the wrong call)."""

    def __init__(
        self, run: FrameworkRun, name: str, inner: Model | None, answer: Answerer | None, rounds: asyncio.Lock
    ) -> None:
        self.run, self.name, self.inner, self.answer, self.rounds = run, name, inner, answer, rounds

    async def get_response(  # the SDK's keyword-only tail is passed on whole in kwargs
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: Any,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        async with self.rounds:
            messages = chat_messages(system_instructions, input)
            self.run.model_call(self.name, messages, offered_tools(tools, handoffs))
            if self.answer is not None:
                response = as_response(self.answer(render_messages(messages)))
            else:
                assert self.inner is not None  # one of the two is always given
                response = await self.inner.get_response(
                    system_instructions, input, model_settings, tools, output_schema, handoffs, tracing, **kwargs
                )
            text, calls = reply_of(response)
            usage = response.usage
            tokens = {"prompt_tokens": usage.input_tokens, "completion_tokens": usage.output_tokens}
            self.run.model_reply(text, calls, tokens if any(tokens.values()) else None)
        return response

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:  # get_response's arguments
        """A streamed call (Runner.run_streamed, Agent.as_tool(on_stream=...)) is recorded and answered whole:
        the reply is asked for (or taken from the recording) as get_response does, then handed to the SDK as a
        stream of one event, the completed response. The run's items and output are the same; what is lost is
        the text arriving piece by piece, which a recording cannot replay at its original pace anyway."""
        response = await self.get_response(*args, **kwargs)
        # Only the fields the SDK's stream loop reads of a completed response (the rest would be invented).
        fields: dict[str, Any] = {"id": response.response_id or "recorded", "output": list(response.output)}
        completed = Response.model_construct(object="response", usage=None, **fields)
        yield ResponseCompletedEvent(type="response.completed", response=completed, sequence_number=0)


class LoopscopeHooks(RunHooks[Any]):
    """The SDK's run hooks: each handoff. (Tool calls are recorded by ToolRecorder, in the call's own task:
    the SDK runs its tool hooks in tasks of their own, whose frames say nothing of the call.)"""

    def __init__(self, run: FrameworkRun, rounds: asyncio.Lock) -> None:
        self.run, self.rounds = run, rounds  # the run's lock on its model calls (see ToolRecorder)

    async def on_handoff(self, context: Any, from_agent: Any, to_agent: Any) -> None:
        async with self.rounds:
            self.run.emit(HandoffEvent, "on_handoff", from_agent=from_agent.name, to_agent=to_agent.name)


def context_type_of(agent: Any) -> type | None:
    """The context type the agent (or one it reaches) declares, from Agent[Ctx] or a RunContextWrapper[Ctx]
    parameter of a tool or a dynamic instructions function."""
    reachable = agents_of(agent)
    functions = [each.instructions for each in reachable if callable(each.instructions)]
    functions += [function_of(t) for each in reachable for t in each.tools if isinstance(t, FunctionTool)]
    return declared_context(reachable, functions, RunContextWrapper)


def _model_name(model: Any) -> str:
    name = model if isinstance(model, str) else getattr(model, "model", None)
    return name if isinstance(name, str) and name else type(model).__name__


@contextmanager
def models_recorded(
    agent: Any, run: FrameworkRun, answer: Answerer | None, rounds: asyncio.Lock | None = None
) -> Iterator[None]:
    """Each agent's model behind a LoopscopeModel inside the block (answered by `answer` when given), put back after."""
    swapped = []
    rounds = rounds or asyncio.Lock()  # the run's (ToolRecorder.rounds); bound to its event loop at first use
    for each in agents_of(agent):
        own = each.model
        inner = None if answer is not None else own if isinstance(own, Model) else MultiProvider().get_model(own)
        each.model = LoopscopeModel(run, _model_name(own or "default"), inner, answer, rounds)
        swapped.append((each, own))
    try:
        yield
    finally:
        for each, own in swapped:
            each.model = own


def _narrate_failure(run: FrameworkRun, error: BaseException, max_turns: int) -> None:
    """What ended the run early, as its own event before chain_error: a tripwire, or max_turns."""
    if isinstance(error, (InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered)):
        result = error.guardrail_result
        stage = "input" if isinstance(error, InputGuardrailTripwireTriggered) else "output"
        info = plain(result.output.output_info)
        run.emit(
            GuardrailEvent,
            "run_guardrails",
            guardrail=result.guardrail.get_name(),
            stage=stage,
            tripped=True,
            info=info,
        )
    elif isinstance(error, MaxTurnsExceeded):
        run.limit_reached(f"raise MaxTurnsExceeded (max_turns={max_turns})")


class OpenAIAgentsAdapter:
    """The framework adapter for the OpenAI Agents SDK's `Agent` (handoffs, guardrails, function tools)."""

    name = "OpenAI Agents SDK"
    extra = "openai-agents"
    max_turns = 10  # the SDK's own default
    takes_max_turns = True  # record(max_turns=N): what the app passes to Runner.run
    limit_setting = "max_turns"  # where chain_start keeps it

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
        turns = max_turns or self.max_turns
        context_type = context_type_of(agent)  # made before the trace file: a class that cannot be is said first
        context = made_bare(context_type, "a context", agent.name) if context_type is not None else None
        run = FrameworkRun(
            path,
            SOURCE,
            "Runner.run",
            vendor_tracing=VENDOR_EXPORT,
            listener=listener,
            clock=clock or time.monotonic,
            **(meta or {}),
        )
        tools = [{"name": t.name, "description": t.description} for t in agent.tools if isinstance(t, FunctionTool)]
        settings = {"framework": self.name, "agent": agent.name, "max_turns": turns}
        run.start(question, tools, settings | ({"context": f"{context_type.__name__}()"} if context_type else {}))
        recorder = ToolRecorder(run, observations)
        hooks = LoopscopeHooks(run, recorder.rounds)
        config = RunConfig(tracing_disabled=True, tool_error_formatter=recorder.formatter)
        try:
            with ExitStack() as substitutions:
                substitutions.enter_context(models_recorded(agent, run, answer, recorder.rounds))
                substitutions.enter_context(recorder.installed(agent))
                result = run_to_end(
                    Runner.run(agent, question, context=context, hooks=hooks, run_config=config, max_turns=turns)
                )
        except Exception as error:  # recorded, then raised: the caller says it in one line
            _narrate_failure(run, error, turns)
            run.fail(error)
            run.close()
            raise
        except BaseException as stopped:  # Ctrl-C, or a debugger closing the run: see FrameworkRun.stopped
            raise run.stopped(stopped) from None
        messages = [dict(m) for m in Converter.items_to_messages(result.to_input_list())]
        run.end({"messages": messages, "output": final_output(result.final_output), "agent": result.last_agent.name})
        run.close()

    def tool_functions(self, agent: Any) -> dict[str, Callable[..., Any]]:
        found: dict[str, Callable[..., Any]] = {}
        for each in agents_of(agent):
            for tool in each.tools:
                function = function_of(tool) if isinstance(tool, FunctionTool) else None
                if callable(function) and function is not tool.on_invoke_tool:
                    found[tool.name] = function
        return found


ADAPTER = OpenAIAgentsAdapter()
