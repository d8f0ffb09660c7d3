"""Language models as the loop sees them: a protocol, a scripted model, and the narrated call."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Generator, Protocol, Sequence

from .events import LLMEndEvent, LLMStartEvent, RateLimitWaitEvent
from .messages import Message, ToolCall, render_messages
from .retry_loop import with_retries
from .run_context import RunContext


@dataclass(frozen=True)
class ModelReply:
    text: str
    usage: dict[str, int] | None = None
    tool_calls: tuple[ToolCall, ...] = ()  # a tool-calling reply's calls, in the order the model gave them


class ChatModel(Protocol):
    """Anything with a name that turns a prompt into text, honouring stop sequences."""

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

    A reply is text, or a ModelReply with tool calls for the tool-calling path
    (`generate_messages`), whose requests (messages and tools) are kept in `requests`.
    """

    def __init__(self, replies: Sequence[str | ModelReply], apply_stop: bool = True,
                 model_name: str = "scripted") -> None:
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
        text = reply.text if isinstance(reply, ModelReply) else reply
        return ModelReply(cut_at_stop(text, stop) if self.apply_stop else text)

    def generate_messages(self, messages: Sequence[Message], tools: Sequence[dict],
                          tool_choice: str = "auto", parallel_tool_calls: bool = True) -> ModelReply:
        """The tool-calling path: the next scripted reply, text or tool calls."""
        with self._lock:
            self.prompts.append(render_messages(messages))
            self.requests.append({"messages": [dict(m) for m in messages], "tools": list(tools),
                                  "tool_choice": tool_choice, "parallel_tool_calls": parallel_tool_calls})
            reply = self._next_reply()
        return reply if isinstance(reply, ModelReply) else ModelReply(reply)

    def _next_reply(self) -> str | ModelReply:
        n = len(self.prompts)
        if n > len(self.replies):
            raise ScriptExhausted(f"ScriptedModel was asked for reply #{n} but has only "
                                  f"{len(self.replies)}; add a reply for this call")
        return self.replies[n - 1]


def call_model(run: RunContext, model: ChatModel, prompt: str,
               stop: Sequence[str]) -> Generator[object, None, str]:
    """One narrated model call: llm_start with the exact prompt, then llm_end with the exact reply.

    Between the two, each attempt waits for the run's rate limiter and a failed attempt is
    retried per the run's retry policy (each shows up as a rate_limit_wait / retry event).
    """
    yield run.emit(LLMStartEvent, model=model.model_name, prompt=prompt, stop=list(stop))
    started = run.clock.monotonic()
    reply = yield from with_retries(run, run.retry_policy, "llm", model.model_name,
                                    lambda: _paced_generate(run, model, prompt, stop))
    yield run.emit(LLMEndEvent, text=reply.text, usage=reply.usage,
                   duration=round(run.clock.monotonic() - started, 6))
    return reply.text


def _paced_generate(run: RunContext, model: ChatModel, prompt: str,
                    stop: Sequence[str]) -> Generator[object, None, ModelReply]:
    """One attempt: wait for the rate limiter (if the run has one), then ask the model."""
    if run.rate_limiter is not None:
        waited = run.rate_limiter.acquire()
        if waited > 0:
            yield run.emit(RateLimitWaitEvent, waited=round(waited, 6))
    return model.generate(prompt, stop)
