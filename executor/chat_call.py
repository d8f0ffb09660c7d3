"""The narrated tool-calling model call: llm_start with the messages and tools, llm_end with the tool calls."""

from __future__ import annotations

from typing import Generator, Protocol, Sequence

from .events import LLMEndEvent, LLMStartEvent, RateLimitWaitEvent
from .messages import Message, ToolCall, render_messages
from .models import ModelReply
from .retry_loop import with_retries
from .run_context import RunContext


class ToolCallingModel(Protocol):
    """A chat model that takes a message list and JSON-Schema tools and may answer with tool calls.

    LangChain: BaseChatModel.bind_tools(...).invoke(messages).
    """

    model_name: str

    def generate_messages(self, messages: Sequence[Message], tools: Sequence[dict],
                          tool_choice: str = "auto", parallel_tool_calls: bool = True) -> ModelReply: ...


def call_chat_model(run: RunContext, model: ToolCallingModel, messages: Sequence[Message],
                    tools: Sequence[dict], parallel_tool_calls: bool = True) -> Generator[object, None, ModelReply]:
    """One narrated call: the exact messages and tools go into llm_start, the reply's text and
    tool calls into llm_end, so a recording holds everything a replay must answer with."""
    messages = [dict(message) for message in messages]  # the event keeps what was sent, not a live list
    yield run.emit(LLMStartEvent, model=model.model_name, prompt=render_messages(messages), stop=[],
                   messages=messages, tools=list(tools) or None)
    started = run.clock.monotonic()
    reply = yield from with_retries(run, run.retry_policy, "llm", model.model_name,
                                    lambda: _paced_call(run, model, messages, tools, parallel_tool_calls))
    yield run.emit(LLMEndEvent, text=reply.text, usage=reply.usage,
                   duration=round(run.clock.monotonic() - started, 6),
                   tool_calls=[call.as_record() for call in reply.tool_calls] or None)
    return reply


def reply_from_llm_end(event: LLMEndEvent) -> ModelReply:
    """The reply a recorded llm_end stands for: what a replay answers the same call with."""
    calls = tuple(ToolCall(call.id, call.name, call.arguments) for call in event.tool_calls or ())
    return ModelReply(event.text, event.usage, calls)


def _paced_call(run: RunContext, model: ToolCallingModel, messages: Sequence[Message], tools: Sequence[dict],
                parallel_tool_calls: bool) -> Generator[object, None, ModelReply]:
    """One attempt: wait for the rate limiter (if the run has one), then ask the model."""
    if run.rate_limiter is not None:
        waited = run.rate_limiter.acquire()
        if waited > 0:
            yield run.emit(RateLimitWaitEvent, waited=round(waited, 6))
    return model.generate_messages(messages, tools, tool_choice="auto" if tools else "none",
                                   parallel_tool_calls=parallel_tool_calls)
