"""Language models as the loop sees them: the protocols a model is written from, a scripted model, the narrated call."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from ..awaiting import Narrated, call_either, pause
from ..callee import model_callee
from ..events import CalleeRef, LLMEndEvent, LLMStartEvent, RateLimitWaitEvent
from ..recovery.retry_loop import with_retries
from ..run_context import RunContext
from .messages import ChatRequest, Message, ToolCall, render_messages


@dataclass(frozen=True)
class ModelReply:
    text: str
    usage: dict[str, int] | None = None
    finish_reason: str | None = None  # as the endpoint said, e.g. "content_filter"
    refusal: str | None = None  # the endpoint's refusal text (OpenAI: message.refusal)
    answered_by: str | None = None  # set by a FallbackModel when a fallback answered
    tool_calls: tuple[ToolCall, ...] = ()  # a tool-calling reply's calls, in the order the model gave them
    replaced_surrogates: int = 0  # lone surrogates the provider replaced with U+FFFD in `text`

    @property
    def refused(self) -> bool:
        return self.refusal is not None or self.finish_reason == "content_filter"


class ModelRefused(Exception):
    """The endpoint refused or filtered the reply: there is no action in it, only `text` to show."""

    def __init__(self, model: str, reply: ModelReply) -> None:
        self.reply = reply
        self.text = reply.refusal or reply.text
        self.detected_by = "refusal_field" if reply.refusal is not None else "content_filter"
        super().__init__(f"{model!r} refused ({self.detected_by}): {self.text[:200]}")


class ChatModel(Protocol):
    """What the ReAct agent and llm_math_tool need of a model: a name for llm_start, a prompt turned into a reply.

    `generate` returns a ModelReply and honours the stop sequences (cut_at_stop does what an API
    does); it may be a coroutine function. Everything else a model may offer is optional and
    declared in ModelHooks: the executor looks each one up with getattr, so a model without it works.
    """

    model_name: str

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply: ...


class ToolCallingModel(Protocol):
    """A chat model that takes a message list and JSON-Schema tools and may answer with tool calls.

    LangChain: BaseChatModel.bind_tools(...).invoke(messages). The tool-calling agent needs it.
    """

    model_name: str

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply: ...


class ModelHooks(Protocol):
    """The optional members the executor looks for on a model, beyond ChatModel's two.

    None is required: each is looked up with getattr(model, name, default), and a model without
    one gets the default its docstring names, so duck typing keeps working. A new model has
    `model_name`, `generate` (or `generate_messages`, see ToolCallingModel) and those of these
    that apply; the providers' OpenAIChatModel has `live`, `endpoint` and `generate_messages`.

    A wrapper around one model (a cache, a logger, a guard) forwards `model_name`, `generate`, and
    `generate_messages` / `agenerate` when the inner model has them, and passes on `live`
    (`getattr(inner, "live", False) is True`) and `callee` (`model_callee(inner)`, so step-into
    still lands in the inner model's code); what it does not pass on, it hides. Wrap plain models,
    then chain the wrappers (`with_fallbacks(Logged(a), [Logged(b)])`): around a FallbackModel a
    wrapper would hide its `narrated_generate` and `describe`, and with them the fallback events
    and the chain a replay rebuilds. A wrapper that emits events of its own implements
    `narrated_generate` and asks the inner model through `generate_with_retries` (the run's rate
    limiter and retries), as FallbackModel does. tests/executor/test_model_hooks.py has one of each.
    """

    live: bool
    """True when the model calls a service: AgentExecutor then retries it by default, as the CLI does
    (RetryPolicy(max_retries=6)). Default: False, no retries unless a retry_policy is given."""

    endpoint: str
    """The URL a circuit breaker is keyed by, shared by the models behind it. Default: model_name."""

    callee: CalleeRef | None
    """The code llm_start and llm_end point the debugger's step-into at (a replay names the recording's).
    Default: the source of the class's `generate`; None: no code to show."""

    async def agenerate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        """`generate` for ainvoke / aiter_events: awaited on the caller's loop. Default: `generate`."""
        ...

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling request (ToolCallingModel). Without it, create_tool_calling_agent refuses the model."""
        ...

    async def agenerate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """`generate_messages` for ainvoke / aiter_events. Default: `generate_messages`."""
        ...

    def narrated_generate(
        self, run: RunContext, prompt: str | ChatRequest, stop: Sequence[str]
    ) -> Narrated[ModelReply]:
        """Inside a run, the whole call with its own attempts and events (fallback, breaker_open...),
        instead of the run's retries around `generate`. `prompt` is a ChatRequest on the tool-calling path."""
        ...

    def describe(self, now: float) -> dict[str, Any]:
        """What chain_start records under settings["model_chain"] at time `now`, for a replay to rebuild:
        {"model": name}, plus "chain" (FallbackModel) or "breaker" (CircuitBreakerModel's state), the
        keys restore_model reads. Default: nothing recorded (a plain model)."""
        ...


class ScriptExhausted(RuntimeError):
    """A ScriptedModel was asked for more replies than it was given."""


def cut_at_stop(text: str, stop: Sequence[str]) -> str:
    """What an API does with stop sequences: the reply ends where the first one begins."""
    cut = len(text)
    for marker in stop:
        at = text.find(marker)
        if at != -1:
            cut = min(cut, at)
    return text[:cut]


class ScriptedModel:
    """Answers each call with the next of the given replies and records every prompt it saw.

    A reply is text, a ModelReply (a refusal, or tool calls for the tool-calling path,
    `generate_messages`, whose requests are kept in `requests`), or an Exception to raise (an endpoint that is down).
    """

    live = False  # no service behind it: nothing to retry

    def __init__(
        self, replies: Sequence[str | ModelReply | Exception], apply_stop: bool = True, model_name: str = "scripted"
    ) -> None:
        self.replies = list(replies)
        self.apply_stop = apply_stop
        self.model_name = model_name
        self.prompts: list[str] = []
        self.requests: list[dict] = []
        self._lock = threading.Lock()  # concurrent tool calls may each ask it (the calculator's nested call)

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        with self._lock:
            self.prompts.append(prompt)
            reply = self._next_reply()
        if isinstance(reply, ModelReply):  # e.g. a scripted refusal or content-filtered reply, as given
            return replace(reply, tool_calls=()) if reply.tool_calls else reply
        return ModelReply(cut_at_stop(reply, stop) if self.apply_stop else reply)

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling path: the next scripted reply, text or tool calls."""
        with self._lock:
            self.prompts.append(render_messages(messages))
            self.requests.append(
                {
                    "messages": [dict(m) for m in messages],
                    "tools": list(tools),
                    "tool_choice": tool_choice,
                    "parallel_tool_calls": parallel_tool_calls,
                }
            )
            reply = self._next_reply()
        return reply if isinstance(reply, ModelReply) else ModelReply(reply)

    def _next_reply(self) -> str | ModelReply:  # called under the lock
        n = len(self.prompts)
        if n > len(self.replies):
            raise ScriptExhausted(
                f"ScriptedModel was asked for reply #{n} but has only {len(self.replies)}; add a reply for this call"
            )
        reply = self.replies[n - 1]
        if isinstance(reply, Exception):  # a scripted failure (an endpoint that is down)
            raise reply
        return reply


def call_model(run: RunContext, model: ChatModel, prompt: str, stop: Sequence[str]) -> Narrated[str]:
    """One narrated model call: llm_start with the exact prompt, then llm_end with the exact reply.

    Between the two, each attempt waits for the run's rate limiter and a failed attempt is
    retried per the run's retry policy (each shows up as a rate_limit_wait / retry event).
    A model with `narrated_generate` (FallbackModel, CircuitBreakerModel) runs its own attempts,
    so its fallback and breaker events come from inside this call. A refused reply ends in ModelRefused.
    """
    callee = model_callee(model)
    yield run.emit(LLMStartEvent, model=model.model_name, prompt=prompt, stop=list(stop), callee=callee)
    started = run.clock.monotonic()
    # generate_with_retries, written out: the stack a learner sees stays call_model -> with_retries.
    narrated = getattr(model, "narrated_generate", None)
    if narrated is not None:
        reply = yield from narrated(run, prompt, stop)
    elif run.retry_policy is None and run.rate_limiter is None:  # nothing to retry or pace: just ask
        reply = yield from call_either(run, model.generate, getattr(model, "agenerate", None), prompt, stop)
    else:
        reply = yield from with_retries(
            run, run.retry_policy, "llm", model.model_name, lambda: _paced_generate(run, model, prompt, stop)
        )
    yield run.emit(LLMEndEvent, text=reply.text, usage=reply.usage,
                   duration=round(run.clock.monotonic() - started, 6), answered_by=reply.answered_by,
                   finish_reason=reply.finish_reason, refusal=reply.refusal, callee=callee,
                   replaced_surrogates=reply.replaced_surrogates)  # fmt: skip
    if reply.refused:
        raise ModelRefused(reply.answered_by or model.model_name, reply)
    return reply.text


def generate_with_retries(
    run: RunContext, model: ChatModel | ToolCallingModel, prompt: str | ChatRequest, stop: Sequence[str]
) -> Narrated[ModelReply]:
    """The reply, after the run's retry policy; a model with `narrated_generate` (fallbacks, a circuit breaker)
    narrates its own attempts, so its events come from inside this call too. `prompt` may be a
    ChatRequest (the tool-calling agent's messages and tools): every wrapper passes it on unread."""
    narrated = getattr(model, "narrated_generate", None)
    if narrated is not None:
        return (yield from narrated(run, prompt, stop))
    return (
        yield from with_retries(
            run, run.retry_policy, "llm", model.model_name, lambda: _paced_generate(run, model, prompt, stop)
        )
    )


def _paced_generate(
    run: RunContext, model: ChatModel | ToolCallingModel, prompt: str | ChatRequest, stop: Sequence[str]
) -> Narrated[ModelReply]:
    """One attempt: wait for the rate limiter (if the run has one), then ask the model."""
    if run.rate_limiter is not None:
        waited = run.rate_limiter.reserve()  # RateLimiter.acquire, with the wait done by pause()
        if waited > 0:
            yield from pause(run, waited, run.rate_limiter.clock)  # under ainvoke: asyncio.sleep
            yield run.emit(RateLimitWaitEvent, waited=round(waited, 6))
    if isinstance(prompt, ChatRequest):  # LangChain: bind_tools(...).invoke(messages)
        chat = cast(ToolCallingModel, model)  # a ChatRequest comes from call_chat_model, with its ToolCallingModel
        return (
            yield from call_either(
                run,
                chat.generate_messages,
                getattr(model, "agenerate_messages", None),
                prompt.messages,
                prompt.tools,
                tool_choice=prompt.tool_choice,
                parallel_tool_calls=prompt.parallel_tool_calls,
            )
        )
    generate = cast(ChatModel, model).generate  # a prompt string comes from call_model, with its ChatModel
    return (yield from call_either(run, generate, getattr(model, "agenerate", None), prompt, stop))
