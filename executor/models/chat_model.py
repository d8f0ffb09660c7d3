"""Language models as the loop sees them: a protocol, a scripted model, and the narrated call."""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..awaiting import call_either, pause
from ..callee import model_callee
from ..events import LLMEndEvent, LLMStartEvent, RateLimitWaitEvent
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
    """Anything with a name that turns a prompt into text, honouring stop sequences.

    `generate` may be a coroutine function; a model may also offer `agenerate`, which the
    async driver (ainvoke, aiter_events) prefers. A model that calls a service sets
    `live = True`; an AgentExecutor then retries it by default, as the command line does.
    """

    model_name: str

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply: ...


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


def call_model(run: RunContext, model: ChatModel, prompt: str, stop: Sequence[str]) -> Generator[object, None, str]:
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
    run: RunContext, model: ChatModel, prompt: str | ChatRequest, stop: Sequence[str]
) -> Generator[object, None, ModelReply]:
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
    run: RunContext, model: ChatModel, prompt: str | ChatRequest, stop: Sequence[str]
) -> Generator[object, None, ModelReply]:
    """One attempt: wait for the rate limiter (if the run has one), then ask the model."""
    if run.rate_limiter is not None:
        waited = run.rate_limiter.reserve()  # RateLimiter.acquire, with the wait done by pause()
        if waited > 0:
            yield from pause(run, waited, run.rate_limiter.clock)  # under ainvoke: asyncio.sleep
            yield run.emit(RateLimitWaitEvent, waited=round(waited, 6))
    if isinstance(prompt, ChatRequest):  # LangChain: bind_tools(...).invoke(messages)
        return (
            yield from call_either(
                run,
                model.generate_messages,
                getattr(model, "agenerate_messages", None),
                prompt.messages,
                prompt.tools,
                tool_choice=prompt.tool_choice,
                parallel_tool_calls=prompt.parallel_tool_calls,
            )
        )
    return (yield from call_either(run, model.generate, getattr(model, "agenerate", None), prompt, stop))
