"""The narrated tool-calling model call: llm_start with the messages and tools, llm_end with the tool calls."""

from __future__ import annotations

from collections.abc import Sequence

from ..awaiting import Narrated
from ..callee import model_callee
from ..events import LLMEndEvent, LLMStartEvent
from ..run_context import RunContext
from .chat_model import ModelRefused, ModelReply, ToolCallingModel, generate_with_retries
from .messages import ChatRequest, Message, ToolCall, render_messages


def call_chat_model(
    run: RunContext,
    model: ToolCallingModel,
    messages: Sequence[Message],
    tools: Sequence[dict],
    parallel_tool_calls: bool = True,
) -> Narrated[ModelReply]:
    """One narrated call: the exact messages and tools go into llm_start, the reply's text and
    tool calls into llm_end, so a recording holds everything a replay must answer with.

    The attempts go the way call_model's do (generate_with_retries): rate limiter, retries,
    fallbacks and breakers, an async model awaited; only the request is messages, not a prompt.
    """
    messages = [dict(message) for message in messages]  # the event keeps what was sent, not a live list
    callee = model_callee(model)
    yield run.emit(LLMStartEvent, model=model.model_name, prompt=render_messages(messages), stop=[],
                   messages=messages, tools=list(tools) or None, callee=callee)  # fmt: skip
    started = run.clock.monotonic()
    reply = yield from generate_with_retries(run, model, ChatRequest(messages, list(tools), parallel_tool_calls), [])
    yield run.emit(LLMEndEvent, text=reply.text, usage=reply.usage,
                   duration=round(run.clock.monotonic() - started, 6), answered_by=reply.answered_by,
                   finish_reason=reply.finish_reason, refusal=reply.refusal, callee=callee,
                   tool_calls=[call.as_record() for call in reply.tool_calls] or None)  # fmt: skip
    if reply.refused:
        raise ModelRefused(reply.answered_by or model.model_name, reply)
    return reply


def reply_from_llm_end(event: LLMEndEvent) -> ModelReply:
    """The reply a recorded llm_end stands for: what a replay answers the same call with."""
    calls = tuple(ToolCall(call.id, call.name, call.arguments) for call in event.tool_calls or ())
    return ModelReply(
        event.text, event.usage, finish_reason=event.finish_reason, refusal=event.refusal, tool_calls=calls
    )
